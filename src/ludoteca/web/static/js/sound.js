// Sounds made with WebAudio (no audio files). The AudioContext is created on the first user
// gesture, never before; muting is remembered in localStorage.

const STORAGE_KEY = "ludoteca.muted";
let context = null;
let muted = readMuted();
const listeners = new Set();

function readMuted() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}

function unlock() {
  if (context) {
    if (context.state === "suspended") context.resume().catch(() => {});
    return;
  }
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context) context = new Context();
}

/** Listen for the first gesture; until then play() is silent. */
export function initSound() {
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(type, unlock, { capture: true, passive: true });
  }
}

export function isMuted() {
  return muted;
}

function setMuted(value) {
  muted = Boolean(value);
  try {
    localStorage.setItem(STORAGE_KEY, muted ? "1" : "0");
  } catch {
    // not remembered, still applied
  }
  for (const listener of listeners) listener(muted);
}

export function toggleMute() {
  setMuted(!muted);
}

export function onMuteChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tone(at, { freq, to = freq, type = "sine", length = 0.12, volume = 0.18 }) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(context.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(at, length, volume, centre) {
  const frames = Math.max(1, Math.floor(context.sampleRate * length));
  const buffer = context.createBuffer(1, frames, context.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = context.createBufferSource();
  const filter = context.createBiquadFilter();
  const gain = context.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = centre;
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(context.destination);
  source.start(at);
}

const SOUNDS = {
  turn(at) {
    tone(at, { freq: 660, length: 0.12 });
    tone(at + 0.12, { freq: 880, length: 0.18 });
  },
  place(at) {
    tone(at, { freq: 240, to: 120, type: "triangle", length: 0.14, volume: 0.3 });
    noise(at, 0.05, 0.2, 900);
  },
  dice(at) {
    for (let i = 0; i < 5; i += 1) noise(at + i * 0.045 + Math.random() * 0.02, 0.03, 0.35, 2500);
  },
  capture(at) {
    tone(at, { freq: 520, to: 190, type: "sawtooth", length: 0.25, volume: 0.12 });
    noise(at + 0.05, 0.12, 0.15, 600);
  },
  chat(at) {
    tone(at, { freq: 990, length: 0.07, volume: 0.08 });
    tone(at + 0.08, { freq: 1320, length: 0.09, volume: 0.06 });
  },
  low(at) {
    tone(at, { freq: 1200, type: "square", length: 0.05, volume: 0.06 });
  },
  end(at) {
    [523, 659, 784, 1047].forEach((freq, i) => tone(at + i * 0.11, { freq, length: 0.2 }));
  },
};

/** Play a named sound (turn, place, dice, capture, chat, low, end) unless muted or not yet allowed. */
export function play(name) {
  if (muted || !context || context.state !== "running" || !SOUNDS[name]) return;
  SOUNDS[name](context.currentTime + 0.01);
}
