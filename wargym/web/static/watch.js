// Watch: a recorded game played back from its film (wargym/web/film.py): the board once, each
// step's scene rebuilt from the changes, a slider, keys and a play button.  Used by the server's
// /watch page and, inlined with board.js, by the one-file page `wargym render --html` writes.
import { drawBoard, drawBoxes, drawScene } from "./board.js";

export function applyDelta(old, change) {
  const out = { ...old, ...change };
  if (change.pieces) {
    const pieces = new Map(old.pieces.map((p) => [p.id, p]));
    for (const id of change.pieces.del) pieces.delete(id);
    for (const p of change.pieces.set) pieces.set(p.id, p);
    out.pieces = [...pieces.values()];
  } else {
    out.pieces = old.pieces;
  }
  return out;
}

// Returns a function that stops this playback (its keys and buttons), before another starts.
export function startWatch(film, doc) {
  const $ = (id) => doc.getElementById(id);
  const stop = new AbortController();
  const on = { signal: stop.signal };
  const scenes = [film.scenes[0]];
  for (let k = 1; k < film.scenes.length; k++) scenes.push(applyDelta(scenes[k - 1], film.scenes[k]));
  const layers = drawBoard($("board"), film.board);
  const slider = $("slider");
  slider.max = String(film.steps);
  let step = 0, timer = null;
  $("title").textContent = `${film.board.title}: ${film.steps} decisions${film.viewer ? ", as " + film.viewer + " saw it" : ""}`;

  function list(id, lines) {
    $(id).replaceChildren(...lines.map((line) => {
      const li = doc.createElement("li");
      li.textContent = line;
      return li;
    }));
  }

  function show(k) {
    step = Math.max(0, Math.min(film.steps, k));
    const scene = scenes[step];
    drawScene(layers, film.board, scene, new Map(), () => {});
    drawBoxes($("boxes"), film.board, scene);
    list("status", scene.status || []);
    list("tracks", (scene.tracks || []).map((t) => `${t.name}: ${t.value}${t.max != null ? " of " + t.max : ""}`));
    $("dice").textContent = scene.dice && scene.dice.length ? `last dice: ${scene.dice.join(", ")}` : "";
    const acts = [];
    for (let i = step - 1; i >= Math.max(0, step - 12); i--) {
      const a = film.acts[i];
      acts.push(`${i + 1}. ${a.by}: ${a.text}${a.events.length ? " — " + a.events.join("; ") : ""}`);
    }
    list("acts", acts);
    $("where").textContent = step === film.steps ? `end: ${film.steps} decisions` : `decision ${step} of ${film.steps}`;
    slider.value = String(step);
    doc.body.dataset.step = String(step);
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      $("play").textContent = "play";
      return;
    }
    $("play").textContent = "pause";
    timer = setInterval(() => (step >= film.steps ? play() : show(step + 1)), 150);
  }

  slider.addEventListener("input", () => show(Number(slider.value)), on);
  $("prev").addEventListener("click", () => show(step - 1), on);
  $("next").addEventListener("click", () => show(step + 1), on);
  $("play").addEventListener("click", play, on);
  doc.addEventListener("keydown", (e) => {
    const by = e.shiftKey ? 10 : 1;
    const moves = { ArrowRight: step + by, ArrowLeft: step - by, PageDown: step + 50, PageUp: step - 50, Home: 0, End: film.steps };
    if (e.key in moves) {
      e.preventDefault();
      show(moves[e.key]);
    }
  }, on);
  show(0);
  return () => {
    if (timer) clearInterval(timer);
    stop.abort();
  };
}
