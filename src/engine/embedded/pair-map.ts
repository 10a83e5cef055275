/**
 * A map from a pair of 32-bit ordinals to a dense pair ordinal (open addressing over typed
 * arrays). Token pairs of a large text slot number in the millions: a Map keyed by strings or
 * by `a * 2^32 + b` (inexact past 2^21 tokens) would cost far more memory and time.
 */
export class PairMap {
  private first = new Uint32Array(1024);
  private second = new Uint32Array(1024);
  /** slot → pair ordinal + 1 (0 = empty) */
  private ords = new Uint32Array(1024);
  size = 0;

  private static hash(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b)) >>> 0;
  }

  /** The ordinal of (a, b), or -1. */
  get(a: number, b: number): number {
    const mask = this.ords.length - 1;
    for (let i = PairMap.hash(a, b) & mask; ; i = (i + 1) & mask) {
      const o = this.ords[i];
      if (o === 0) return -1;
      if (this.first[i] === a && this.second[i] === b) return o - 1;
    }
  }

  /** The ordinal of (a, b), assigning the next one (= size before the call) when new. */
  intern(a: number, b: number): number {
    if ((this.size + 1) * 2 > this.ords.length) this.grow();
    const mask = this.ords.length - 1;
    for (let i = PairMap.hash(a, b) & mask; ; i = (i + 1) & mask) {
      const o = this.ords[i];
      if (o === 0) {
        this.first[i] = a;
        this.second[i] = b;
        this.ords[i] = ++this.size;
        return this.size - 1;
      }
      if (this.first[i] === a && this.second[i] === b) return o - 1;
    }
  }

  private grow(): void {
    const { first, second, ords } = this;
    const cap = ords.length * 2;
    this.first = new Uint32Array(cap);
    this.second = new Uint32Array(cap);
    this.ords = new Uint32Array(cap);
    const mask = cap - 1;
    for (let j = 0; j < ords.length; j++) {
      if (ords[j] === 0) continue;
      let i = PairMap.hash(first[j], second[j]) & mask;
      while (this.ords[i] !== 0) i = (i + 1) & mask;
      this.first[i] = first[j];
      this.second[i] = second[j];
      this.ords[i] = ords[j];
    }
  }
}
