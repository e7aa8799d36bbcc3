/* global AudioWorkletProcessor, sampleRate, registerProcessor -- the AudioWorkletGlobalScope */
// The wake-word detector's AudioWorklet (renderer/src/features/voice/wake-detector.ts): turns the
// microphone, at whatever rate the AudioContext runs, into 16 kHz blocks of 1280 samples scaled to
// int16 values (openWakeWord's models expect those, not ±1 floats) and posts each block.
class WakeWordCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = sampleRate / 16000;
    this.at = 0;
    this.prev = 0;
    this.block = new Float32Array(1280);
    this.filled = 0;
  }

  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    // linear interpolation from the context's rate down to 16 kHz; `at` is the next output
    // sample's position in this chunk (-1 is the previous chunk's last sample)
    for (let i = 0; i < input.length; i++) {
      const x = input[i];
      const left = i === 0 ? this.prev : input[i - 1];
      while (this.at <= i) {
        const v = left + (x - left) * (this.at - (i - 1));
        this.block[this.filled++] = Math.max(-32768, Math.min(32767, v * 32768));
        if (this.filled === this.block.length) {
          this.port.postMessage(this.block);
          this.block = new Float32Array(1280);
          this.filled = 0;
        }
        this.at += this.step;
      }
    }
    this.prev = input[input.length - 1];
    this.at -= input.length;
    return true;
  }
}

registerProcessor('wake-word-capture', WakeWordCapture);
