// A "Scan" button that reads a product barcode with the phone's camera, shown only where the
// browser can read barcodes itself (the BarcodeDetector API: Chrome on Android, for one) and has a
// camera API; elsewhere nothing is shown and the typed code is the way. The camera opens in a
// dialog, stops as soon as a code is read (or the dialog is closed), and never leaves the phone.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type DetectorClass = new (opts: { formats: string[] }) => BarcodeDetectorLike;

const FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e'];
const detectorClass = (): DetectorClass | null => {
  const c = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  return typeof c === 'function' && typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function' ? c : null;
};

/** Whether this browser can scan barcodes with the camera. */
export const canScanBarcodes = (): boolean => detectorClass() !== null;

function Scanner({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }): ReactElement {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const Detector = detectorClass();
    if (!Detector) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer = 0;
    const detector = new Detector({ formats: FORMATS });
    const look = async () => {
      if (stopped || !video.current) return;
      try {
        const found = (await detector.detect(video.current)).find((b) => /^\d{8,14}$/.test(b.rawValue));
        if (found && !stopped) {
          onCode(found.rawValue);
          onClose();
          return;
        }
      } catch {
        // a frame that could not be read: try the next one
      }
      timer = window.setTimeout(() => void look(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void look();
      })
      .catch(() => setProblem('The camera could not be opened. Allow this page to use the camera, or type the digits instead.'));
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const t of stream?.getTracks() ?? []) t.stop();
    };
  }, [onCode, onClose]);
  return (
    <div className="scan">
      {problem ? <p role="alert">{problem}</p> : <p className="muted">Hold the barcode inside the picture. It is read on this phone.</p>}
      <video ref={video} className="scan__video" muted playsInline aria-label="Camera picture" />
    </div>
  );
}

export function BarcodeScanButton({ onCode, disabled }: { onCode: (code: string) => void; disabled?: boolean }): ReactElement | null {
  const [open, setOpen] = useState(false);
  if (!canScanBarcodes()) return null;
  return (
    <>
      <button type="button" className="btn btn--secondary" disabled={disabled} onClick={() => setOpen(true)}>
        <Icon name="search" size={20} />
        Scan
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Scan a barcode">
        {open ? <Scanner onCode={onCode} onClose={() => setOpen(false)} /> : null}
      </Dialog>
    </>
  );
}
