/**
 * The sandbox tokenizer, a page of its own meant for an iframe: the card
 * number, expiry and CVV are typed here and go straight to the processor's
 * tokenize call, so the app's page never sees them. The token goes to the
 * parent window with postMessage, to the app's origin only.
 */
export function tokenizerPage({ nonce, parentOrigin }: { nonce: string; parentOrigin: string | null }): string {
  const years = Array.from({ length: 10 }, (_, index) => new Date().getUTCFullYear() + index);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style nonce="${nonce}">
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 8px; }
  label { display: block; margin: 6px 0 2px; }
  input, select { font: inherit; padding: 4px; }
  .row { display: flex; gap: 8px; }
  .error { color: #b00020; min-height: 1.2em; }
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
        .map((month) => `<option>${month}</option>`)
        .join('')}</select></div>
    <div><label for="expiry_year">Expiry Year</label>
      <select id="expiry_year" name="expiry_year">${years.map((year) => `<option>${year}</option>`).join('')}</select></div>
    <div><label for="cvv">CVV</label>
      <input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="3" size="4" required></div>
  </div>
  <p class="error" id="error" role="alert"></p>
  <button type="submit">Use this card</button>
</form>
<script nonce="${nonce}">
  const parentOrigin = ${JSON.stringify(parentOrigin)} || window.location.origin;
  const form = document.getElementById('card');
  const error = document.getElementById('error');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body = Object.fromEntries(new FormData(form));
    const response = await fetch('tokenize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json();
    if (answer.response !== 'success') {
      error.textContent = answer.errors.map((each) => each.message).join(' ');
      window.parent.postMessage({ type: 'card-token-error', errors: answer.errors }, parentOrigin);
      return;
    }
    form.reset();
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
