// The page: choose a game, play it by clicking, watch the other side's moves.  It talks to the
// server only through the WebSocket's session commands (docs/bot-protocol.md) and reads the board
// from GET /api/board; the game lives on the server, so a reload resumes it (localStorage keeps
// the game's id and this page's side tokens, nothing else).
import { drawBoard, drawBoxes, drawScene } from "./board.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const PACE = Number(params.get("pace") ?? 60); // ms between the other side's moves in the log
const STORE = "wargym-game";

let socket = null;
let nextId = 1;
const pending = new Map();
let catalog = null;
let game = null; // {game, ruleset, scenario, tokens: {side: token}}
let board = null;
let layers = null;
let busy = false;

function setStatus(status) {
  document.body.dataset.status = status;
}

function connect() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error("the WebSocket could not connect"));
    ws.onclose = () => {
      socket = null;
      for (const { reject: r } of pending.values()) r(new Error("the connection closed"));
      pending.clear();
    };
    ws.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      reply.ok ? waiter.resolve(reply) : waiter.reject(new Error(reply.error));
    };
  });
}

async function request(body) {
  if (!socket) socket = await connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ ...body, id }));
  });
}

function option(select, value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label ?? value;
  select.appendChild(o);
}

function fillScenarios() {
  const rs = catalog.rulesets.find((r) => r.name === $("ruleset").value);
  $("scenario").replaceChildren();
  $("side").replaceChildren();
  for (const s of rs.scenarios) option($("scenario"), s, s === rs.default_scenario ? `${s} (default)` : s);
  $("scenario").value = rs.default_scenario;
  for (const p of rs.players) option($("side"), p);
}

async function loadCatalog() {
  catalog = await (await fetch("/api/catalog")).json();
  for (const rs of catalog.rulesets) {
    option($("ruleset"), rs.name, rs.drawable ? rs.title : `${rs.title} (board not drawn yet)`);
    if (!rs.drawable) $("ruleset").lastChild.disabled = true;
  }
  $("ruleset").value = catalog.default.ruleset;
  for (const d of catalog.decisions) option($("decisions"), d);
  for (const o of catalog.opponents) option($("opponent"), o.spec, o.title);
  $("opponent").value = catalog.default.opponent;
  fillScenarios();
  $("ruleset").addEventListener("change", fillScenarios);
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(game));
}

async function loadBoard() {
  const reply = await fetch(`/api/board?ruleset=${encodeURIComponent(game.ruleset)}&scenario=${encodeURIComponent(game.scenario)}`);
  board = await reply.json();
  layers = drawBoard($("board"), board);
}

async function newGame(event) {
  if (event) event.preventDefault();
  const ruleset = $("ruleset").value, scenario = $("scenario").value, opponent = $("opponent").value;
  const players = catalog.rulesets.find((r) => r.name === ruleset).players;
  const sides = opponent === "people" && $("hotseat").checked ? players : [$("side").value];
  setStatus("starting");
  const made = await request({ cmd: "new", ruleset, scenario, decisions: $("decisions").value, opponent, sides });
  game = { game: made.game, ruleset, scenario, tokens: {} };
  for (const side of sides) {
    const joined = await request({ cmd: "join", game: made.game, side });
    game.tokens[side] = joined.token;
  }
  save();
  $("log").replaceChildren();
  $("result").textContent = "";
  await loadBoard();
  await refresh();
}

async function joinGame(event) {
  event.preventDefault();
  const id = $("join-id").value.trim();
  const ruleset = $("ruleset").value, scenario = $("scenario").value;
  const joined = await request({ cmd: "join", game: id, side: $("side").value });
  game = { game: id, ruleset, scenario, tokens: { [$("side").value]: joined.token } };
  const view = await request({ cmd: "view", game: id, token: joined.token });
  if (view.ruleset) Object.assign(game, { ruleset: view.ruleset, scenario: view.scenario }); // the game's, not the form's
  save();
  await loadBoard();
  await refresh();
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function showSince(view) {
  for (const account of view.since || []) {
    const li = document.createElement("li");
    li.className = account.by === view.side ? "mine" : "theirs";
    li.textContent = `${account.by}: ${account.description}${account.events.length ? " — " + account.events.join("; ") : ""}`;
    $("log").prepend(li);
    if (PACE > 0 && account.by !== view.side) await sleep(PACE);
  }
}

// Ask for every joined side's view; play on with the one whose decision it is, else wait.
async function refresh() {
  while (game) {
    const views = [];
    for (const [side, token] of Object.entries(game.tokens)) {
      views.push(await request({ cmd: "view", game: game.game, token }));
    }
    await showSince(views[0]); // hot-seat: both sides are told the same decisions; the log shows them once
    const mine = views.find((v) => v.your_turn);
    const shown = mine || views[0];
    render(shown);
    if (!shown.started) {
      setStatus("waiting-for-players");
      $("prompt").textContent = `game ${game.game}: waiting for ${shown.waiting_for.join(", ")} to join`;
    } else if (shown.game_over || mine) {
      return;
    } else {
      setStatus("waiting");
    }
    const waited = await request({ cmd: "wait", game: game.game, token: game.tokens[shown.side], timeout: 20 });
    await showSince(waited);
  }
}

function render(view) {
  $("game-info").textContent = `${game.ruleset} / ${game.scenario}, game ${game.game}; you: ${Object.keys(game.tokens).join(" and ")}`;
  if (!view.started) return;
  const scene = view.scene;
  const legal = view.legal || [];
  const rule = board.phase_rules?.[view.phase];
  const cite = rule ? ` (rule ${rule})` : ""; // every legal action is described with its phase's rule
  const hexes = new Map(legal.filter((a) => a.action < board.hex_actions).map((a) => [a.action, a.description + cite]));
  const specials = legal.filter((a) => a.action >= board.hex_actions);
  drawScene(layers, board, scene, hexes, (h) => act(view, h, hexes.get(h)));
  drawBoxes($("boxes"), board, scene);
  $("status").replaceChildren(...scene.status.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("tracks").replaceChildren(...(scene.tracks || []).map((t) => {
    const li = document.createElement("li");
    li.textContent = `${t.name}: ${t.value}${t.max != null ? " of " + t.max : ""}`;
    return li;
  }));
  $("dice").textContent = scene.dice && scene.dice.length ? `last dice: ${scene.dice.join(", ")}${scene.roll ? " (" + scene.roll + ")" : ""}` : "";
  const playable = new Map(specials.map((a) => [a.action, a.description]));
  $("cards").replaceChildren(...(scene.cards || []).map((card) => {
    const div = document.createElement("div");
    div.className = "card" + (view.your_turn && playable.has(card.action) ? " playable" : "");
    div.dataset.action = card.action ?? "";
    const name = document.createElement("strong");
    name.textContent = card.name;
    const body = document.createElement("div");
    body.textContent = card.text || "";
    div.append(name, body);
    if (view.your_turn && playable.has(card.action)) div.addEventListener("click", () => act(view, card.action, playable.get(card.action)));
    return div;
  }));
  $("specials").replaceChildren();
  $("confirm").hidden = true;
  if (view.game_over) {
    setStatus("over");
    $("prompt").textContent = "";
    $("result").textContent = `Game over: ${view.result}`;
    return;
  }
  if (!view.your_turn) {
    $("prompt").textContent = `${view.to_move} to decide (${view.phase})`;
    return;
  }
  $("prompt").textContent = `${view.side}: ${view.phase}${cite}` +
    (hexes.size ? `; click one of the ${hexes.size} outlined hexes` : "");
  for (const a of specials) {
    const b = document.createElement("button");
    b.textContent = a.description + cite;
    b.dataset.action = a.action;
    b.addEventListener("click", () => {
      if (/^end\b/i.test(a.description) && hexes.size > 0) {
        $("confirm-text").textContent = `${a.description} with ${hexes.size} hexes still to act on?`;
        $("confirm").hidden = false;
        $("confirm-yes").onclick = () => act(view, a.action, a.description);
        $("confirm-no").onclick = () => { $("confirm").hidden = true; };
      } else {
        act(view, a.action, a.description);
      }
    });
    $("specials").appendChild(b);
  }
  setStatus("your-turn");
}

async function act(view, action, description) {
  if (busy) return;
  busy = true;
  setStatus("acting");
  try {
    await request({ cmd: "play", game: game.game, token: game.tokens[view.side], action });
  } catch (err) {
    $("prompt").textContent = `refused: ${err.message}`;
  } finally {
    busy = false;
  }
  await refresh();
}

async function resume() {
  const stored = localStorage.getItem(STORE);
  if (!stored) return false;
  game = JSON.parse(stored);
  try {
    await loadBoard();
    await refresh();
    return true;
  } catch (err) {
    localStorage.removeItem(STORE);
    game = null;
    $("prompt").textContent = `the last game could not be resumed (${err.message}): start a new one`;
    return false;
  }
}

async function main() {
  setStatus("loading");
  await loadCatalog();
  $("new-game").addEventListener("submit", (e) => newGame(e).catch(fail));
  $("join-game").addEventListener("submit", (e) => joinGame(e).catch(fail));
  if (await resume()) return;
  // nothing to resume: the default game (Island War's default scenario against the rule) starts at
  // once, unless the address says ?auto=0 (choose first)
  if (params.get("auto") === "0") setStatus("idle");
  else await newGame(null);
}

function fail(err) {
  setStatus("error");
  $("prompt").textContent = `error: ${err.message}`;
}

main().catch(fail);
