import { errorCodes, errorEnvelope } from '@peeks/contracts';
import { request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

let subject: TestApp;
let port: number;
beforeAll(async () => {
  subject = await createTestApp();
  port = (subject.app.server.address() as AddressInfo).port;
});
afterAll(() => subject.close());

/** A GET over real HTTP on loopback, past fastify's inject: Node's own parser reads it first. */
function get(path: string): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** What the server writes back to `text`, sent as it is on a socket of its own. */
function sendRaw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => {
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

describe("Node's own refusals, in the envelope (issue 33)", () => {
  it('answers a 20 KB URL with 431 in the envelope, with the request id in the header too', async () => {
    const answer = await get(`/api/health?padding=${'x'.repeat(20 * 1024)}`);
    expect(answer.statusCode).toBe(431);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = errorEnvelope.parse(JSON.parse(answer.body));
    expect(body).toEqual({
      response: 'error',
      message: 'The URL or the headers are too long',
      errors: [{ code: errorCodes.invalidFormat, message: 'The URL or the headers are too long' }],
      request_id: expect.any(String) as string,
    });
    expect(answer.headers['x-request-id']).toBe(body.request_id);
    // The server goes on answering.
    expect((await get('/api/health')).statusCode).toBe(200);
  });

  it('answers what is not HTTP with 400 in the envelope', async () => {
    const answer = await sendRaw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(errorEnvelope.parse(JSON.parse(body))).toMatchObject({
      response: 'error',
      errors: [{ code: errorCodes.invalidFormat }],
    });
  });
});
