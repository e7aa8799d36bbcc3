// Lookup as hooks: a barcode's product (GET /api/lookup/barcode/:code) and a phone number's facts
// (GET /api/lookup/phone), each asked when the member presses the button (never as they type:
// Open Food Facts allows a few reads a minute).
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { BarcodeProduct, PhoneFacts } from '../../api/types';

export function useBarcodeLookup() {
  return useMutation({ mutationFn: (code: string) => api.get<{ product: BarcodeProduct }>(`/api/lookup/barcode/${encodeURIComponent(code)}`) });
}

export function usePhoneLookup() {
  return useMutation({
    mutationFn: ({ number, region }: { number: string; region: string }) =>
      api.get<{ phone: PhoneFacts }>(`/api/lookup/phone?${new URLSearchParams({ number, ...(region ? { region } : {}) }).toString()}`),
  });
}
