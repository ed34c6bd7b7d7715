/**
 * Whether an address being saved is the primary one (§4: exactly one primary
 * whenever the user has any address).
 *
 * - The user's first address is primary whatever was asked: there must be one.
 * - Asking for primary makes it so (the caller un-marks the old one).
 * - The primary cannot be un-marked by editing it: which other address would
 *   take over is a guess, so it stays until another is made primary or it is
 *   deleted. The modal sends is_primary unchanged on edit anyway.
 * - Left out, an edit keeps what the address was.
 */
export function choosePrimary({
  asked,
  wasPrimary,
  othersExist,
}: {
  asked: boolean | undefined;
  wasPrimary: boolean;
  othersExist: boolean;
}): boolean {
  if (!othersExist || wasPrimary) return true;
  return asked ?? false;
}
