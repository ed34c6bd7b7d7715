/**
 * How a receiver checks a message (Standard Webhooks), in Node: shown
 * beside the secret so the first integration needs no other page.
 */
export const verificationSnippet = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the whsec_… value shown when the webhook was made (or rotated)
function verify(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  // After a rotation the header carries two signatures: accept either.
  return headers['webhook-signature'].split(' ').some((each) => {
    const given = Buffer.from(each.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;
