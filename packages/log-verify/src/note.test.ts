import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, parseCheckpoint } from './checkpoint.ts';
import { formatVerifierKey, NoteError, openNote, parseNote, parseVerifierKey } from './note.ts';

// The example of golang.org/x/mod/sumdb/note (note.go and note_test.go),
// the implementation c2sp.org/signed-note was written from.
const peterKey = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const peterPrivateKey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const signature = 'x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=';
const peterNote = `${text}\n\u2014 PeterNeumann ${signature}\n`;
// Another vector of the same tests: a key whose base64 holds a '+'.
const enochKey = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';

const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
const seedOf = (privateKey: string) => Buffer.from(privateKey.split('+').slice(4).join('+'), 'base64').subarray(1);

describe('verifier keys', () => {
  it('reads the published keys and writes them back', () => {
    const key = parseVerifierKey(peterKey);
    expect(key.name).toBe('PeterNeumann');
    expect(key.keyId.toString('hex')).toBe('c74f20a3');
    expect(formatVerifierKey(key.name, key.publicKey)).toBe(peterKey);
    expect(formatVerifierKey('EnochRoot', parseVerifierKey(enochKey).publicKey)).toBe(enochKey);
  });

  it('refuses every truncation and every changed character', () => {
    for (let start = 0; start < peterKey.length; start += 1)
      for (let end = start + 1; end <= peterKey.length; end += 1)
        if (start !== 0 || end !== peterKey.length)
          expect(() => parseVerifierKey(peterKey.slice(start, end))).toThrow(NoteError);
    for (let at = 0; at < peterKey.length; at += 1) {
      const changed = peterKey.slice(0, at) + String.fromCharCode(peterKey.charCodeAt(at) + 1) + peterKey.slice(at + 1);
      expect(() => parseVerifierKey(changed)).toThrow(NoteError);
    }
  });
});

describe('signed notes', () => {
  it('opens the published note', () => {
    expect(openNote(peterNote, parseVerifierKey(peterKey))).toBe(text);
  });

  it('signing the text with the published private key gives the published signature', () => {
    const privateKey = createPrivateKey({
      key: Buffer.concat([pkcs8Prefix, seedOf(peterPrivateKey)]),
      format: 'der',
      type: 'pkcs8',
    });
    const key = parseVerifierKey(peterKey);
    const blob = Buffer.concat([key.keyId, sign(null, Buffer.from(text), privateKey)]).toString('base64');
    expect(blob).toBe(signature);
  });

  it('refuses a changed text, a changed signature and another key', () => {
    const key = parseVerifierKey(peterKey);
    expect(() => openNote(peterNote.replace('cryptography', 'cryptographY'), key)).toThrow(/does not match/u);
    expect(() => openNote(peterNote.replace('yyBwJ', 'yyBwK'), key)).toThrow(/does not match/u);
    expect(() => openNote(peterNote, parseVerifierKey(enochKey))).toThrow(/no signature by EnochRoot/u);
  });

  it('passes over signatures by unknown keys', () => {
    // A line by another key (its bytes need not verify: it is not checked).
    const cosigned = `${peterNote}\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n`;
    expect(openNote(cosigned, parseVerifierKey(peterKey))).toBe(text);
    expect(parseNote(cosigned).signatures.map((line) => line.name)).toEqual(['PeterNeumann', 'EnochRoot']);
  });

  it('refuses malformed notes', () => {
    for (const bad of [text, `${text}\n`, `${text}\n\u2014 PeterNeumann\n`, `${text}\n- PeterNeumann ${signature}\n`])
      expect(() => parseNote(bad)).toThrow(NoteError);
  });
});

describe('checkpoints', () => {
  it('reads what it writes, extension lines kept', () => {
    const rootHash = Buffer.alloc(32, 7);
    const body = formatCheckpoint({ origin: 'example.com/log', treeSize: 12345, rootHash });
    expect(body).toBe(`example.com/log\n12345\n${rootHash.toString('base64')}\n`);
    expect(parseCheckpoint(`${body}extra\n`)).toEqual({
      origin: 'example.com/log',
      treeSize: 12345,
      rootHash,
      extensions: ['extra'],
    });
  });

  it('refuses a size with leading zeros, a short root and a missing newline', () => {
    const root = Buffer.alloc(32).toString('base64');
    expect(() => parseCheckpoint(`log\n012\n${root}\n`)).toThrow(/tree size/u);
    expect(() => parseCheckpoint(`log\n12\n${Buffer.alloc(31).toString('base64')}\n`)).toThrow(/32 bytes/u);
    expect(() => parseCheckpoint(`log\n12\n${root}`)).toThrow(/newline/u);
  });
});
