// A file sent to the server as multipart form data, with upload progress (fetch cannot report
// how much of a request body has gone, XMLHttpRequest can). Failures become the same ApiError the
// rest of the app uses: the server's sentence, or a plain one per status, never a code.
import { ApiError, refusalSentence } from './client';

export interface UploadOptions {
  /** Extra form fields sent before the file (e.g. role=main). */
  fields?: Record<string, string | undefined>;
  /** 0..1 as the file goes up. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The file's form field name (default file). */
  fileField?: string;
}

const NETWORK_MESSAGE = 'The upload stopped before it finished. Check that this device is on the home network, then try again.';

export function uploadFile<T>(url: string, file: File, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(opts.fields ?? {})) if (v !== undefined) form.append(k, v);
    form.append(opts.fileField ?? 'file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let json: unknown;
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1);
        resolve(json as T);
        return;
      }
      const err = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
      const message = typeof err?.message === 'string' && err.message ? err.message : refusalSentence(xhr.status);
      reject(new ApiError(xhr.status, typeof err?.code === 'string' ? err.code : `http_${xhr.status}`, message, err?.details));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', NETWORK_MESSAGE));
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
