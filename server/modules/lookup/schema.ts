// Lookup (issue 38): requests and answers of /api/lookup (a barcode's product, a phone number's facts).
import { z } from 'zod';

/** Retail barcodes: EAN-8, UPC-A (12), EAN-13 and GTIN-14, digits only. */
export const BarcodeParams = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{8,14}$/, 'A barcode is 8 to 14 digits, as printed under the bars.'),
});
export type BarcodeCode = z.infer<typeof BarcodeParams>['code'];

export const Product = z.object({
  code: z.string(),
  name: z.string().nullable(),
  brand: z.string().nullable(),
  quantity: z.string().nullable(),
  imageUrl: z.string().nullable(),
  categories: z.array(z.string()),
  /** Where the facts came from (Open Food Facts is the one source). */
  source: z.literal('open_food_facts'),
  /** When Hearth asked the source. */
  fetchedAt: z.string(),
  /** True when answered from Hearth's own copy without asking the source again. */
  cached: z.boolean(),
});
export type Product = z.infer<typeof Product>;

export const PhoneQuery = z.object({
  number: z.string().trim().min(1, 'Type a phone number.').max(40, 'A phone number is at most 40 characters.'),
  /** The country a number without +code is read in: two letters (CH, US, GB…). */
  region: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'The region is a two-letter country code, such as CH or US.')
    .transform((s) => s.toUpperCase())
    .optional(),
});

export const PHONE_LINE_TYPES = ['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE', 'TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL', 'UNKNOWN'] as const;

export const PhoneFacts = z.object({
  e164: z.string(),
  international: z.string(),
  national: z.string(),
  /** Two-letter country code, and its name in English. */
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  countryCallingCode: z.string(),
  /** The place the number belongs to (a city or region), when the numbering plan says. */
  place: z.string().nullable(),
  /** The carrier the number range was first given to (a number may have moved since). */
  carrier: z.string().nullable(),
  lineType: z.enum(PHONE_LINE_TYPES),
  timeZones: z.array(z.string()),
  valid: z.boolean(),
});
export type PhoneFacts = z.infer<typeof PhoneFacts>;
export const PhoneResponse = z.object({ phone: PhoneFacts });
export const ProductResponse = z.object({ product: Product });
