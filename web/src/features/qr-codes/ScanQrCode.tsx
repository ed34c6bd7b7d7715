import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Dialog } from '../../ui/Dialog.tsx';
import { decodeQr } from './qr-decoder.ts';
import { outcomeOfScan, SCAN_BOX, SCAN_FPS, scanRegion } from './qr-rules.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { qrCodesTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(qrCodesTexts);

/**
 * /scan-qr-code (spec §2 Scan QR code): the camera, read at 10 frames a
 * second in a 250-pixel box; a merchant's code opens /transfer-fund with its
 * payment. Camera errors are ignored (no camera, permission refused): the
 * user can pick a photo of the code instead. A code that is not a payment
 * shows 'Error' with Scan Again and Cancel.
 */
export default function ScanQrCode() {
  const { t } = useTranslation();
  const titleId = useId();
  const navigate = useNavigate();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const [camera, setCamera] = useState(false);
  const [pickedNothing, setPickedNothing] = useState(false);

  const handle = (text: string | null): boolean => {
    if (text === null) return false;
    const outcome = outcomeOfScan(text);
    if ('go' in outcome) void navigate(outcome.go);
    else setFailed(true);
    return true;
  };

  useEffect(() => {
    if (failed) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    let busy = false;
    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch {
        return; // Camera errors are ignored (spec §8); the image picker stays.
      }
      const element = video.current;
      if (stopped || !element) {
        stream.getTracks().forEach((track) => {
          track.stop();
        });
        return;
      }
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setCamera(true);
      timer = setInterval(() => {
        if (busy || element.videoWidth === 0) return;
        busy = true;
        const region = scanRegion(
          { width: element.videoWidth, height: element.videoHeight },
          { width: element.clientWidth, height: element.clientHeight },
        );
        void decodeQr(element, region)
          .then((text) => {
            if (!stopped && handle(text)) clearInterval(timer);
          })
          .finally(() => {
            busy = false;
          });
      }, 1000 / SCAN_FPS);
    };
    void start();
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((track) => {
        track.stop();
      });
    };
    // handle only navigates or marks the failure; restarting the camera for it would flicker.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failed]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const bitmap = await createImageBitmap(file).catch(() => null);
    const side = bitmap ? Math.min(bitmap.width, bitmap.height) : 0;
    const text = bitmap
      ? await decodeQr(bitmap, {
          x: Math.floor((bitmap.width - side) / 2),
          y: Math.floor((bitmap.height - side) / 2),
          size: side,
        })
      : null;
    setPickedNothing(!handle(text));
  };

  return (
    <section className="panel narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('scan.title')}</h1>
      <div className="scan-box" style={{ width: SCAN_BOX, maxWidth: '100%' }}>
        <video ref={video} muted playsInline aria-label={t('scan.camera')} hidden={!camera} />
        {!camera && <p className="notice">{t('scan.no_camera')}</p>}
      </div>
      <div className="field">
        <label htmlFor={`${titleId}-image`}>{t('scan.pick_image')}</label>
        <input
          id={`${titleId}-image`}
          type="file"
          accept="image/*"
          onChange={(event) => {
            void pick(event.target.files?.[0]);
          }}
        />
      </div>
      {pickedNothing && <p role="alert">{t('scan.nothing_found')}</p>}
      {failed && (
        <Dialog
          title={t('scan.error')}
          footer={
            <>
              <button
                type="button"
                className="button"
                onClick={() => {
                  void navigate('/');
                }}
              >
                {t('scan.cancel')}
              </button>
              <button
                type="button"
                className="button primary"
                onClick={() => {
                  setFailed(false);
                }}
              >
                {t('scan.again')}
              </button>
            </>
          }
        >
          <p role="alert">{t('scan.not_a_payment')}</p>
        </Dialog>
      )}
    </section>
  );
}
