"""Writes the sound cues to static/sounds/ (issue 14): small 8-bit mono WAV files made
from a few sine tones, so the site vendors its own sounds and needs no tool beyond Python.

    python scripts/make_sounds.py
"""

import math
import wave
from pathlib import Path

RATE = 11025  # cues, not music: a low rate keeps each file a few KB
OUT = Path(__file__).resolve().parent.parent / "static" / "sounds"


def tone(freq: float, seconds: float, volume: float = 0.5, attack: float = 0.008, glide: float = 0.0) -> list[float]:
    """One note with a soft attack and an exponential decay (no clicks); `glide` bends the
    pitch by that fraction over the note."""
    n = int(RATE * seconds)
    out, phase = [], 0.0
    for i in range(n):
        t = i / RATE
        f = freq * (1 + glide * i / n)
        phase += 2 * math.pi * f / RATE
        envelope = min(1.0, t / attack) * math.exp(-4.0 * t / seconds)
        # A little second harmonic makes it rounder than a bare sine on small speakers.
        out.append(volume * envelope * (math.sin(phase) + 0.25 * math.sin(2 * phase)) / 1.25)
    return out


def write(name: str, samples: list[float]) -> None:
    frames = bytes(max(0, min(255, int(128 + 127 * s))) for s in samples)
    with wave.open(str(OUT / name), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(1)
        f.setframerate(RATE)
        f.writeframes(frames)
    print(name, (OUT / name).stat().st_size, "bytes")


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Notes placed at start times (s), summed."""
    length = max(int(start * RATE) + len(notes) for start, notes in parts)
    out = [0.0] * length
    for start, notes in parts:
        offset = int(start * RATE)
        for i, s in enumerate(notes):
            out[offset + i] += s
    return out


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    # A wrong entry: two low, falling notes, short and soft ("uh-uh").
    write("wrong.wav", mix((0.0, tone(330, 0.09, 0.45, glide=-0.08)), (0.1, tone(247, 0.14, 0.45, glide=-0.1))))
    # A finish: a rising major arpeggio (C E G C) with the last note ringing.
    write(
        "finish.wav",
        mix(
            (0.0, tone(523, 0.16, 0.35)),
            (0.1, tone(659, 0.16, 0.35)),
            (0.2, tone(784, 0.18, 0.35)),
            (0.3, tone(1047, 0.42, 0.4)),
        ),
    )
    # The room's countdown: a short woodblock-like tick per digit (3, 2, 1), then a bright GO.
    write("tick.wav", tone(880, 0.08, 0.4))
    write("go.wav", mix((0.0, tone(1047, 0.3, 0.4)), (0.0, tone(1319, 0.3, 0.3))))
