// What the vision module asks of other modules (container.ts hands these in).
import type { InventoryModelPicker } from '../home-inventory/public.js';

/** What OCR read in a picture (the home inventory's one tesseract.js reader answers). */
export interface OcrReading {
  text: string;
  /** 0..1 */
  confidence: number;
}

export interface VisionPorts {
  /**
   * The models module: the household's vision model (the Home inventory feature's first, then the
   * chat model when it can see, else the one installed); null when none is installed.
   */
  models: Pick<InventoryModelPicker, 'visionModel'>;
  /** The home inventory's OCR reader (one worker thread for the whole server, one picture at a time). */
  ocr: { read(image: Buffer): Promise<OcrReading> };
}
