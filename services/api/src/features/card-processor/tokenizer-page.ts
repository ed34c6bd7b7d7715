/**
 * The sandbox tokenizer, a page of its own meant for an iframe: the card
 * number, expiry and CVV are typed here and go straight to the processor's
 * tokenize call, so the app's page never sees them. The token goes to the
 * parent window with postMessage, to the app's origin only.
 */
export function tokenizerPage({
  nonce,
  parentOrigin,
  now = new Date(),
}: {
  nonce: string;
  parentOrigin: string | null;
  now?: Date;
}): string {
  // The expiry starts at next month, never at a month already past; the years run from the one it falls in.
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const years = Array.from({ length: 10 }, (_, index) => now.getUTCFullYear() + index);
  const option = (value: string, chosen: boolean) => `<option${chosen ? ' selected' : ''}>${value}</option>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style nonce="${nonce}">
  /* The app's tokens (web/src/app/styles.css), repeated: this page is framed from another origin and loads no stylesheet. */
  :root {
    color-scheme: light dark;
    --ink: #1c2033; --muted: #5a6072; --line: #d5d8e3; --surface: #fff;
    --brand: #2f3e9e; --on-brand: #fff; --danger: #a01c2c; --success: #1e6b3a; --focus: #f2b705;
  }
  @media (prefers-color-scheme: dark) {
    :root {
      --ink: #e8eaf3; --muted: #a9aec2; --line: #3a4058; --surface: #1b1f2e;
      --brand: #9fadff; --on-brand: #121522; --danger: #ff9aa6; --success: #8fe0a8;
    }
  }
  * { box-sizing: border-box; }
  body { font: 16px/1.4 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--ink); background: var(--surface); margin: 0; padding: 0.5rem; }
  label { display: block; margin: 0.4rem 0 0.2rem; font-weight: 600; font-size: 0.9rem; }
  input, select { font: inherit; color: inherit; background: var(--surface); width: 100%; padding: 0.45rem 0.6rem; border: 1px solid var(--muted); border-radius: 6px; }
  input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
  .row { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.5rem; }
  .error { color: var(--danger); min-height: 1.2em; margin: 0.3rem 0; font-size: 0.9rem; white-space: pre-line; }
  .ready { color: var(--success); margin: 0.3rem 0; font-size: 0.9rem; }
  .ready:empty { display: none; }
  button { font: inherit; font-weight: 600; color: var(--on-brand); background: var(--brand); border: 1px solid var(--brand); border-radius: 6px; padding: 0.45rem 1rem; cursor: pointer; }
  button[disabled] { opacity: 0.6; cursor: progress; }
</style>
</head>
<body>
<form id="card" novalidate>
  <label for="card_number">Card Number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
  <div class="row">
    <div><label for="expiry_month">Expiry Month</label>
      <select id="expiry_month" name="expiry_month">${Array.from({ length: 12 }, (_, index) =>
        String(index + 1).padStart(2, '0'),
      )
        .map((month) => option(month, Number(month) === next.getUTCMonth() + 1))
        .join('')}</select></div>
    <div><label for="expiry_year">Expiry Year</label>
      <select id="expiry_year" name="expiry_year">${years.map((year) => option(String(year), year === next.getUTCFullYear())).join('')}</select></div>
    <div><label for="cvv">CVV</label>
      <input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="3" size="4" required></div>
  </div>
  <p class="error" id="error" role="alert"></p>
  <p class="ready" id="ready" role="status"></p>
  <button type="submit" id="use">Use this card</button>
</form>
<script nonce="${nonce}">
  const parentOrigin = ${JSON.stringify(parentOrigin)} || window.location.origin;
  const form = document.getElementById('card');
  const error = document.getElementById('error');
  const ready = document.getElementById('ready');
  const use = document.getElementById('use');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    ready.textContent = '';
    use.disabled = true;
    const body = Object.fromEntries(new FormData(form));
    let answer;
    try {
      const response = await fetch('tokenize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      answer = await response.json();
    } catch {
      answer = { response: 'error', errors: [{ code: 0, message: 'The card could not be checked. Try again.' }] };
    } finally {
      use.disabled = false;
    }
    if (answer.response !== 'success') {
      // Framed, the app's form shows the errors under the card, once; alone, this page shows them, one a line.
      if (window.parent === window) error.textContent = [...new Set(answer.errors.map((each) => each.message))].join('\n');
      window.parent.postMessage({ type: 'card-token-error', errors: answer.errors }, parentOrigin);
      return;
    }
    // The fields are cleared (the page keeps no card number), so say what was kept rather than go blank.
    form.reset();
    ready.textContent = 'Card ending ' + String(answer.mask).slice(-4) + ' is ready.';
    window.parent.postMessage(
      { type: 'card-token', token: answer.token, brand: answer.brand, mask: answer.mask, expiry_month: body.expiry_month, expiry_year: body.expiry_year },
      parentOrigin,
    );
  });
</script>
</body>
</html>
`;
}
