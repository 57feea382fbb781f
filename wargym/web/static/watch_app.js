// The server's /watch page: pick a replay.json (or a tournament's replays folder), the server
// turns it into a film (POST /api/film) and the page plays it back (watch.js).
import { startWatch } from "./watch.js";

const $ = (id) => document.getElementById(id);
let stop = null;
let files = [];

async function open(file) {
  $("where").textContent = `reading ${file.name} ...`;
  const viewer = $("watch-viewer").value;
  const reply = await fetch(`/api/film${viewer ? "?viewer=" + encodeURIComponent(viewer) : ""}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text(),
  });
  const film = await reply.json();
  if (!reply.ok) {
    $("where").textContent = `${file.name}: ${film.error}`;
    return;
  }
  if (stop) stop();
  stop = startWatch(film, document);
}

function choose(list) {
  files = [...list].filter((f) => f.name.endsWith(".json"));
  $("watch-list").replaceChildren(...files.map((f, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = f.webkitRelativePath || f.name;
    return o;
  }));
  $("watch-list").hidden = files.length < 2;
  if (files.length) open(files[0]).catch((err) => { $("where").textContent = err.message; });
}

$("watch-file").addEventListener("change", (e) => choose(e.target.files));
$("watch-folder").addEventListener("change", (e) => choose(e.target.files));
$("watch-list").addEventListener("change", () => open(files[Number($("watch-list").value)]));
$("watch-viewer").addEventListener("change", () => files.length && open(files[Number($("watch-list").value || 0)]));
document.body.dataset.status = "idle";
