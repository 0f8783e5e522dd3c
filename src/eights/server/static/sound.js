// The table's sounds, made with WebAudio (no files to download): your turn, a card played,
// a card drawn, the end of a round. Off until the player turns them on (one toggle,
// remembered in this browser); an AudioContext is only made after that click.

import { keepSetting, setting } from "./storage.js";

let context = null;

/** Whether sounds are on (off by default). */
export function soundOn() {
  return setting("sound") === "on";
}

export function setSound(on) {
  keepSetting("sound", on ? "on" : null);
  if (on) audio(); // made in the click that turned it on, as browsers ask
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    try {
      context = Context ? new Context() : null;
    } catch {
      return null; // no audio here: the table plays on in silence
    }
    if (!context) return null;
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** One note: a frequency glide with a quick attack and a soft decay. */
function tone(ctx, { from, to = from, start = 0, length = 0.12, type = "sine", volume = 0.18 }) {
  const at = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  osc.frequency.exponentialRampToValueAtTime(to, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A short burst of filtered noise: a card sliding on the felt. */
function swish(ctx, { start = 0, length = 0.09, pitch = 1800, volume = 0.25 }) {
  const at = ctx.currentTime + start;
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

const SOUNDS = {
  turn: (ctx) => {
    tone(ctx, { from: 660, length: 0.1 });
    tone(ctx, { from: 880, start: 0.11, length: 0.16 });
  },
  play: (ctx) => swish(ctx, { pitch: 2200 }),
  draw: (ctx) => swish(ctx, { pitch: 900, length: 0.12 }),
  round: (ctx) => [523, 659, 784].forEach((f, i) => tone(ctx, { from: f, start: i * 0.12, length: 0.22, type: "triangle" })),
};

/** Play one of the table's sounds (nothing while they are off). */
export function sound(name) {
  if (!soundOn()) return;
  const ctx = audio();
  if (!ctx || !SOUNDS[name]) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    /* a browser without some node: no sound */
  }
  document.body.dataset.lastSound = name; // what was heard last (the tests read it)
}
