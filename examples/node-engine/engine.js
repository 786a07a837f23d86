#!/usr/bin/env node
// A castrules protocol v1 engine in one file, no dependencies: it knows only the mana value
// (CR 202.3) and the colours (CR 105.2) of objects as they are set up. Anything else it skips.
// Run: castrules run --engine "node examples/node-engine/engine.js"
"use strict";
const readline = require("readline");

const FEATURES = ["mana_value", "color"]; // declare only what is fully supported
const COLORS = ["W", "U", "B", "R", "G"];

// "{2}{W/U}{B/P}" -> ["2", "W/U", "B/P"]
const symbols = (cost) => (cost || "").match(/\{[^}]*\}/g)?.map((s) => s.slice(1, -1).toUpperCase()) ?? [];

function manaValue(cost) { // 202.3: the total amount of mana in the cost, X counting as 0
  let total = 0;
  for (const symbol of symbols(cost)) {
    const parts = symbol.split("/").filter((p) => p !== "P"); // Phyrexian {B/P} counts as {B}
    if (parts.length === 1 && /^\d+$/.test(parts[0])) total += Number(parts[0]); // generic
    else if (parts.length === 1 && ["X", "Y", "Z"].includes(parts[0])) total += 0; // 202.3e (not on the stack)
    else total += Math.max(...parts.map((p) => (/^\d+$/.test(p) ? Number(p) : 1))); // 202.3f hybrid: largest
  }
  return total;
}

function colors(cost) { // 105.2: an object is each colour of a coloured mana symbol in its cost
  const found = new Set(symbols(cost).flatMap((s) => s.split("/")));
  return COLORS.filter((c) => found.has(c)); // WUBRG order; {C} and generic are colourless
}

function run(request) {
  const { case: c, cards, observe } = request;
  if (c.steps.length > 0) {
    const kind = Object.keys(c.steps[0])[0];
    return { status: "skipped", reason: `this engine cannot run steps (step 1 is '${kind}'); it only reports mana value and colours` };
  }
  const objects = {};
  for (const o of c.setup.objects || []) {
    if (o.prototyped) return { status: "skipped", reason: "prototyped permanents are not supported" };
    const card = cards[o.card];
    if (!card) return { status: "errored", message: `card ${o.card} was not sent` };
    objects[o.id] = { name: card.name, zone: o.zone, mana_cost: card.mana_cost ?? null,
                      mana_value: manaValue(card.mana_cost), colors: colors(card.mana_cost) };
  }
  const players = {}; // nothing has happened yet: life as set up (20 by default)
  for (const [name, p] of Object.entries(c.setup.players)) players[name] = { life: p.life ?? 20 };
  const snapshots = {};
  for (const n of observe) snapshots[String(n)] = { players, objects };
  return { status: "ok", steps: [], snapshots };
}

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "hello") {
    if (message.protocol !== 1) {
      send({ type: "refuse", protocol: 1, reason: `only protocol 1 is spoken here, not ${message.protocol}` });
      process.exit(1);
    }
    send({ type: "hello", protocol: 1, features: FEATURES,
           engine: { name: "node-sliver", version: "1.0.0", homepage: "https://github.com/castrules/castrules/tree/main/examples/node-engine" } });
  } else if (message.type === "run") {
    let result;
    try { result = run(message.request); } catch (e) { result = { status: "errored", message: String(e), context: e.stack }; }
    send({ type: "result", seq: message.seq, result });
  } else if (message.type === "stop") {
    process.exit(0);
  }
});
