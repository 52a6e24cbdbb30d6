// Sound effects of the table: short tones synthesised with WebAudio (no audio
// files) for "your turn", the opponent's discard, the end of a hand (gin has its
// own chord) and a refused action.
//
// <html data-sound="off"> (the table settings) means silence and no AudioContext at
// all; <html data-volume> (0 to 100) scales every tone, 0 being silence too. Browsers let a page start audio only after a user
// gesture, so the context is created on the first click, tap or key press; a
// tone asked for before that is dropped. window.ginSound.played lists the
// names of the tones actually scheduled, for tests.

export const SOUND_NAMES = ["turn", "discard", "hand_end", "gin", "error"];

// Two tones asked for together (a discard, then "your turn") follow each other.
const SPACING = 0.14;

let context = null;
let lastStart = 0;
const played = [];

const enabled = () => document.documentElement.dataset.sound !== "off";

/** The volume of the table settings, from 0 to 1 (0.7 when unset). */
export function volume() {
  const value = Number(document.documentElement.dataset.volume ?? 70);
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 100) / 100 : 0.7;
}

/** A soft note: quick attack, exponential decay; the gain stays well under 1. */
function note(ctx, out, { freq, start, length, type = "sine", gain = 0.18, glide = null }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (glide) osc.frequency.exponentialRampToValueAtTime(glide, start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(out);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A card landing on the felt: a short burst of filtered noise over a low thud. */
function slap(ctx, out, start) {
  const length = 0.09;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 2200;
  band.Q.value = 0.9;
  const amp = ctx.createGain();
  amp.gain.value = 0.5;
  noise.connect(band).connect(amp).connect(out);
  noise.start(start);
  note(ctx, out, { freq: 190, glide: 110, start, length: 0.1, type: "triangle", gain: 0.16 });
}

// Frequencies: E5 A5, G4 C5 E5, C5 E5 G5 B5 C6, A3 F3.
const SYNTHS = {
  turn(ctx, out, t) {
    note(ctx, out, { freq: 659.25, start: t, length: 0.16 });
    note(ctx, out, { freq: 880, start: t + 0.11, length: 0.28 });
  },
  discard(ctx, out, t) { slap(ctx, out, t); },
  hand_end(ctx, out, t) {
    [392, 523.25, 659.25].forEach((freq, i) => {
      note(ctx, out, { freq, start: t + i * 0.09, length: 0.5, type: "triangle", gain: 0.14 });
    });
  },
  gin(ctx, out, t) {
    [523.25, 659.25, 783.99, 987.77].forEach((freq, i) => {
      note(ctx, out, { freq, start: t + i * 0.06, length: 0.9, gain: 0.1 });
      note(ctx, out, { freq: freq * 2, start: t + i * 0.06, length: 0.5, type: "triangle", gain: 0.025 });
    });
    note(ctx, out, { freq: 1046.5, start: t + 0.3, length: 0.8, gain: 0.12 });
  },
  error(ctx, out, t) {
    const soft = ctx.createBiquadFilter();
    soft.type = "lowpass";
    soft.frequency.value = 900;
    soft.connect(out);
    note(ctx, soft, { freq: 220, start: t, length: 0.13, type: "square", gain: 0.1 });
    note(ctx, soft, { freq: 174.61, start: t + 0.12, length: 0.2, type: "square", gain: 0.1 });
  },
};

/** Schedule tone `name` on any (online or offline) audio context at time `when`, at
 * `level` (1: full) of its loudness. */
export function synthesise(ctx, name, when = ctx.currentTime, level = 1) {
  const synth = SYNTHS[name];
  if (!synth) throw new Error(`unknown sound ${name}`);
  const out = ctx.createGain();
  out.gain.value = level;
  out.connect(ctx.destination);
  synth(ctx, out, when);
}

/** Play a tone now, if sound is on and the page has had a user gesture. */
export function play(name) {
  if (!enabled() || context === null || volume() === 0) return;
  if (context.state === "suspended") context.resume().catch(() => {});
  const start = Math.max(context.currentTime + 0.01, lastStart + SPACING);
  lastStart = start;
  synthesise(context, name, start, volume());
  played.push(name);
}

function unlock() {
  if (!enabled()) return;
  if (context === null) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
}

for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}

window.ginSound = {
  played,
  /** "none" until an AudioContext exists, then its state. */
  get state() { return context === null ? "none" : context.state; },
};
