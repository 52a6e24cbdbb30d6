// Python's random.Random (Mersenne Twister MT19937) for whole-number seeds: the same
// seed gives the same choice()/randrange() as CPython 3.11, so the computer players of
// games/bots and their browser copies make the same random picks (docs/offline.md).

const N = 624;
const M = 397;

export class PyRandom {
  /** Like Python's random.Random(seed) for a whole number 0 <= seed < 2**53. */
  constructor(seed) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error("seed must be a whole number >= 0");
    this.mt = new Uint32Array(N);
    this.index = N;
    // CPython seeds with init_by_array over the 32-bit words of the seed, low first.
    const key = [];
    let rest = seed;
    do { key.push(rest % 0x100000000); rest = Math.floor(rest / 0x100000000); } while (rest > 0);
    this.initByArray(key);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output (genrand_uint32). */
  nextUint32() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let kk = 0; kk < N; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
        mt[kk] = mt[(kk + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A uniform whole number in [0, n), as Python's _randbelow (n < 2**32). */
  randbelow(n) {
    if (!(n > 0)) return 0;
    const k = 32 - Math.clz32(n);  // n.bit_length()
    let r = this.nextUint32() >>> (32 - k);
    while (r >= n) r = this.nextUint32() >>> (32 - k);
    return r;
  }

  randrange(n) { return this.randbelow(n); }

  choice(items) {
    if (!items.length) throw new Error("cannot choose from an empty sequence");
    return items[this.randbelow(items.length)];
  }
}
