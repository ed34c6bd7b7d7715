/** Every key optional, down to the strings: a language may leave texts out and fall back to English. */
export type DeepPartial<T> = { [Key in keyof T]?: T[Key] extends string ? string : DeepPartial<T[Key]> };

/**
 * One feature's texts in every language the app offers (spec §9). English is
 * complete and types the keys; the others may leave keys out. Each feature
 * owns its dictionary beside its screens (`features/<name>/i18n.ts`) and adds
 * it when its code loads: the first load's through `app/texts.ts`, a later
 * chunk's from its own screen (`addLaterTexts`).
 */
export interface Dictionary<English> {
  en: English;
  ja: DeepPartial<English>;
  mr: DeepPartial<English>;
}

export function dictionary<English extends Record<string, object>>(texts: {
  en: English;
  ja: NoInfer<DeepPartial<English>>;
  mr: NoInfer<DeepPartial<English>>;
}): Dictionary<English> {
  return texts;
}

/** The top-level keys that more than one dictionary claims; merging must find none. */
export function clashingKeys(dictionaries: readonly Dictionary<object>[]): string[] {
  const seen = new Set<string>();
  const clashes: string[] = [];
  for (const { en } of dictionaries)
    for (const key of Object.keys(en)) {
      if (seen.has(key)) clashes.push(key);
      seen.add(key);
    }
  return clashes;
}
