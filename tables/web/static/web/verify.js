"use strict";
// The hash chain and the provable deck, re-checked in the browser with WebCrypto and nothing of the
// server's code: ledger/hashing.py and docs/deck.md give the recipes, docs/verify_deal.py is the
// same check in Python. Each check is a row: pass, fail (with the reason) or skip (not checkable
// by this viewer, with the reason).
const GutsVerify = (() => {
  const GENESIS = "0".repeat(64);
  const RANKS = "23456789TJQKA";
  const SUITS = "cdhs";
  const PACK = [...RANKS].flatMap((rank) => [...SUITS].map((suit) => rank + suit));
  const encoder = new TextEncoder();

  // canonical_json: sorted keys, "," and ":" separators, non-ASCII as is, integers only.
  function canonical(value) {
    if (value === null) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") {
      if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
      return String(value);
    }
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    const keys = Object.keys(value).sort();   // by UTF-16 unit: Python's order for every key we store
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }

  function hex(buffer) {
    return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function bytesOf(hexText) {
    if (!/^([0-9a-fA-F]{2})+$/.test(hexText)) throw new Error("not hex");
    return new Uint8Array(hexText.match(/../g).map((pair) => parseInt(pair, 16)));
  }

  async function sha256(data) {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    return hex(await crypto.subtle.digest("SHA-256", bytes));
  }

  // recorded_at as hashed: "YYYY-MM-DDTHH:MM:SS.ffffff+00:00" (the API writes Z and drops a zero fraction).
  function isoUtc(text) {
    const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
    if (!match) throw new Error(`unreadable recorded_at ${text}`);
    let seconds = match[1];
    if (match[3] !== "Z" && match[3] !== "+00:00") {
      seconds = new Date(Date.parse(match[1] + match[3])).toISOString().slice(0, 19);
    }
    return `${seconds}.${(match[2] || "").padEnd(6, "0")}+00:00`;
  }

  // The chain form: data without its salt, each secret key as its salted commitment.
  function chainData(event) {
    const data = {};
    for (const [key, value] of Object.entries(event.data)) if (key !== "salt") data[key] = value;
    return Object.assign(data, event.commitments || {});
  }

  async function chainHash(event) {
    const body = canonical({data: chainData(event), meta: event.meta, recorded_at: isoUtc(event.recorded_at),
                            stream: event.stream, type: event.type, version: event.version});
    return sha256(event.prev_hash + body);
  }

  const commitment = (salt, key, value) => sha256(`${salt}:${key}:${canonical(value)}`);

  // One served event after the head {version, hash} of its stream (null: none seen): [state, reason].
  async function checkEvent(event, head) {
    if (event.hash == null || event.prev_hash == null) {
      return ["skip", "no hash served (a legacy event hidden from you): not checked"];
    }
    if (head && event.version !== head.version + 1) {
      return ["fail", `v${head.version + 1} to v${event.version - 1} are missing from the chain`];
    }
    if (head && event.prev_hash !== head.hash) return ["fail", `prev_hash is not the hash of v${head.version}`];
    if (!head && event.version === 1 && event.prev_hash !== GENESIS) {
      return ["fail", "the first event does not start from the genesis hash"];
    }
    const computed = await chainHash(event);
    if (computed !== event.hash) {
      return ["fail", `hash does not match the event: recomputed ${computed.slice(0, 12)}…, served ${event.hash.slice(0, 12)}…`];
    }
    const shown = [];
    for (const key of event.data.secret || []) {
      if (event.data.salt == null || event.data[key] == null) continue;
      if (await commitment(event.data.salt, key, event.data[key]) !== (event.commitments || {})[key]) {
        return ["fail", `the shown ${key} is not the value committed in the chain`];
      }
      shown.push(key);
    }
    const link = head ? `linked to v${head.version}` : event.version === 1 ? "starts the chain" : "link not checked";
    return ["pass", `hash matches, ${link}${shown.length ? `; shown ${shown.join(", ")}: as committed` : ""}`];
  }

  // --- the deck (docs/deck.md) ---------------------------------------------------------------
  const hmacKey = (bytes) => crypto.subtle.importKey("raw", bytes, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);

  function counterMessage(prefix, counter) {
    const message = new Uint8Array(prefix.length + 8);
    message.set(prefix);
    new DataView(message.buffer).setBigUint64(prefix.length, BigInt(counter));
    return message;
  }

  async function shuffle(cards, keyBytes) {
    const key = await hmacKey(keyBytes);
    const order = [...cards];
    const words = [];
    let block = 0;
    async function word() {
      if (!words.length) {
        const view = new DataView(await crypto.subtle.sign("HMAC", key, counterMessage(new Uint8Array(), block++)));
        for (let k = 0; k < 8; k++) words.push(view.getUint32(4 * k));
      }
      return words.shift();
    }
    for (let i = order.length - 1; i > 0; i--) {
      const n = i + 1;
      const limit = 2 ** 32 - (2 ** 32 % n);
      let w = await word();
      while (w >= limit) w = await word();
      const j = w % n;
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  async function deckOf(seed, pack, reshuffles) {
    const seedBytes = bytesOf(seed);
    let deck = await shuffle(pack, seedBytes);
    for (const [g, batch] of (reshuffles || []).entries()) {
      const key = new Uint8Array(await crypto.subtle.sign(
        "HMAC", await hmacKey(seedBytes), counterMessage(encoder.encode("guts-reshuffle"), g + 1)));
      deck = deck.concat(await shuffle([...batch].sort((a, b) => PACK.indexOf(a) - PACK.indexOf(b)), key));
    }
    return deck;
  }

  function knownPack(pack) {
    for (let lowest = 0; lowest < 13; lowest++) {
      const expected = PACK.filter((card) => RANKS.indexOf(card[0]) >= lowest);
      if (Array.isArray(pack) && expected.length === pack.length && expected.every((c, i) => c === pack[i])) {
        return true;
      }
    }
    return false;
  }

  // --- the replay console's two checks ------------------------------------------------------
  async function fetchJson(url) {
    const answer = await fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}});
    return {status: answer.status, body: await answer.json().catch(() => null)};
  }

  // Every event of the table from its first, until one past `lastVersion` (pages of 500).
  async function tableEvents(url, lastVersion) {
    const events = [];
    let after = 0;
    for (let page = 0; page < 100000; page++) {
      const {status, body} = await fetchJson(`${url}?after=${after}&limit=500`);
      if (status !== 200) throw new Error(`the table's events answered ${status}`);
      events.push(...body.results);
      after = body.cursor;
      if (!body.has_more || events.some((event) => event.version > lastVersion)) return events;
    }
    return events;
  }

  async function chainChecks(replay, eventsUrl, drawn, add) {
    const dealEvents = replay.steps.map((step) => step.event);
    const first = dealEvents[0].version;
    const last = dealEvents[dealEvents.length - 1].version;
    const feed = await tableEvents(eventsUrl, last);
    const byVersion = new Map(feed.map((event) => [event.version, event]));
    let head = null;
    let checked = 0;
    let problem = null;
    for (const event of feed.filter((e) => e.version < first)) {
      const [state, reason] = await checkEvent(event, head);
      if (state === "fail" && problem === null) problem = `v${event.version} ${event.type}: ${reason}`;
      if (state === "pass") checked++;
      head = {version: event.version, hash: event.hash};
    }
    if (first > 1) {
      add(problem ? "fail" : "pass", `Events v1 to v${first - 1}, before the deal`,
          problem || `${checked} of ${first - 1} events re-hashed, every link from the genesis hash holds`);
    }
    for (const [index, event] of dealEvents.entries()) {
      let [state, reason] = await checkEvent(event, head);
      const twin = byVersion.get(event.version);
      if (state !== "fail" && twin && twin.hash !== event.hash) {
        [state, reason] = ["fail", "the table's event feed serves another hash for this event"];
      }
      if (state !== "fail" && drawn[index] !== undefined && drawn[index] !== (event.hash || "")) {
        [state, reason] = ["fail", "the page drew another event than the one served"];
      }
      add(state, `v${event.version} ${event.type}`, reason, index);
      head = {version: event.version, hash: event.hash};
    }
    const next = byVersion.get(last + 1);
    if (next) {
      const [state, reason] = await checkEvent(next, head);
      add(state, `v${next.version} ${next.type}, after the deal`, reason);
    }
  }

  async function proofChecks(replay, proofUrl, names, add) {
    const {status, body: proof} = await fetchJson(proofUrl);
    if (status === 409 && !replay.finished) {
      add("skip", "Deal still being played", "its seed stays secret until it ends: nothing to prove yet");
      return;
    }
    if (status !== 200) {
      add(status === 409 ? "skip" : "fail", "Proof", (proof && proof.detail) || `the proof answered ${status}`);
      return;
    }
    if (!proof.provable) {
      add("skip", "Not provable", proof.reason || "no seed");
      return;
    }
    const started = replay.steps.find((step) => step.event.type === "DealStarted");
    if ((proof.deck_schema || 1) >= 2) {
      await openingChecks(proof, started, names, add);
      return;
    }
    add(knownPack(proof.pack) ? "pass" : "fail", "Pack",
        knownPack(proof.pack) ? `${proof.pack.length} cards in index order` : "not a standard or Italian pack in index order");
    const hashed = await sha256(bytesOf(proof.seed));
    add(hashed === proof.commitment.toLowerCase() ? "pass" : "fail", "Commitment",
        hashed === proof.commitment.toLowerCase() ? `sha256(seed) = ${hashed.slice(0, 16)}…, as published before the deal`
          : `sha256(seed) = ${hashed.slice(0, 16)}…, but ${proof.commitment.slice(0, 16)}… was published`);
    const chained = started && started.event.data.commitment;
    add(chained === proof.commitment ? "pass" : "fail", "Commitment in the chain",
        chained === proof.commitment ? `the proof's commitment is the one DealStarted v${started.event.version} holds`
          : "the proof's commitment is not the one in the deal's DealStarted event");
    const deck = await deckOf(proof.seed, proof.pack, proof.reshuffles);
    for (const dealt of proof.dealt) {
      const holder = names[dealt.player] || `player ${dealt.player}`;
      const title = `Card ${dealt.index + 1} to ${holder}`;
      if (dealt.card == null) {
        add("skip", title, "hidden from you, not checked");
      } else if (dealt.index >= deck.length) {
        add("skip", title, "from reshuffled discards you may not see, not checked");
      } else if (deck[dealt.index] === dealt.card) {
        add("pass", title, `${dealt.card}: the seed deals ${deck[dealt.index]} here`);
      } else {
        add("fail", title, `${dealt.card} was dealt, but the seed deals ${deck[dealt.index]} here`);
      }
    }
    add("info", "The server's own verdict", proof.ok ? "ok" : "not ok");
  }

  // Deck schema 2 (docs/deck.md §10): the permutation from the root and the players' seeds, then
  // each card opened to this reader against the RFC 9162 Merkle root published before the deal.
  function joined(...parts) {
    const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) { out.set(part, at); at += part.length; }
    return out;
  }

  async function digest(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  async function included(root, size, index, leafHex, path) {
    if (index < 0 || index >= size) return false;
    let fn = index, sn = size - 1;
    let r = await digest(joined(new Uint8Array([0]), bytesOf(leafHex)));
    for (const sibling of path) {
      const p = bytesOf(sibling);
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        r = await digest(joined(new Uint8Array([1]), p, r));
        while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        r = await digest(joined(new Uint8Array([1]), r, p));
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && hex(r) === root;
  }

  // A short pack (Italian poker, D-IT-01): the committed cards outside it, opened to everyone, must
  // be exactly the 52-card pack's cards outside the deal's pack; the k-th card dealt is then at the
  // k-th position of the permutation not among theirs. Returns those positions, or null (a failure).
  async function outOfPlayChecks(proof, add) {
    const pack = proof.pack || PACK;
    if (!knownPack(pack)) {
      add("fail", "Pack", "not a standard or Italian pack in index order");
      return null;
    }
    const outside = PACK.filter((card) => !pack.includes(card));
    const openings = proof.out_of_play || [];
    const positions = new Set(openings.map((o) => o.position));
    const cards = openings.map((o) => o.card).sort((a, b) => PACK.indexOf(a) - PACK.indexOf(b));
    let ok = positions.size === openings.length && JSON.stringify(cards) === JSON.stringify(outside);
    for (const opening of openings) {
      const leaf = await sha256(joined(bytesOf(opening.salt), encoder.encode(opening.card)));
      ok = ok && (opening.tree || 0) === 0 && await included(proof.root, proof.size, opening.position, leaf, opening.path || []);
    }
    if (!outside.length && !openings.length) return positions;
    add(ok ? "pass" : "fail", "Short pack", ok
      ? `${pack.length} cards in play; the ${outside.length} others are out of play, each opened at its committed position`
      : "the cards out of play are not the pack's cards outside the deal's pack, or do not open their commitments");
    return ok ? positions : null;
  }

  async function openingChecks(proof, started, names, add) {
    if (proof.finished === false) {
      add("info", "Deal still being played", "the cards opened to you so far are checked; the others once you may see them");
    }
    const seeds = proof.entropy || [];
    const lines = seeds.map((s) => `${s.player}:${s.client_seed}\n`).join("");
    const key = await sha256(joined(encoder.encode("guts-permutation\n"), encoder.encode(`${proof.root}\n${lines}`)));
    const perm = await shuffle([...Array(proof.size).keys()], bytesOf(key));
    const same = key === proof.permutation_key && JSON.stringify(perm) === JSON.stringify(proof.permutation);
    add(same ? "pass" : "fail", "Permutation", same ? `recomputed from the root and ${seeds.length} player seed(s)`
      : "the served permutation is not the one the root and the seeds give");
    if (!seeds.length) add("info", "Player entropy", "no player contributed a seed: the house alone fixed this order");
    const chained = started && started.event.data.root;
    add(chained === proof.root ? "pass" : "fail", "Root in the chain",
        chained === proof.root ? `the proof's root is the one DealStarted v${started.event.version} holds`
          : "the proof's root is not the one in the deal's DealStarted event");
    const outside = await outOfPlayChecks(proof, add) || new Set();
    const inPlay = perm.filter((position) => !outside.has(position));
    const used = new Set([...outside].map((position) => `0:${position}`));
    for (const opening of proof.openings || []) {
      const tree = opening.tree || 0;
      const stock = tree ? (proof.stocks || []).find((s) => s.generation === tree) : null;
      const root = tree ? stock && stock.root : proof.root;
      const size = tree ? stock && stock.count : proof.size;
      const expected = tree ? opening.index - (stock ? stock.first_index : 0) : inPlay[opening.index];
      const leaf = await sha256(joined(bytesOf(opening.salt), encoder.encode(opening.card)));
      const slot = `${tree}:${opening.position}`;
      const holder = opening.player == null ? "the stock" : (names[opening.player] || `player ${opening.player}`);
      const title = `Card ${opening.index + 1} to ${holder}`;
      const ok = root && opening.position === expected && !used.has(slot)
        && await included(root, size, opening.position, leaf, opening.path || []);
      used.add(slot);
      add(ok ? "pass" : "fail", title, ok ? `${opening.card}: committed at position ${opening.position}`
        : `${opening.card} does not open the commitment at the position the permutation assigns`);
    }
    const opened = new Set((proof.openings || []).map((o) => o.index));
    for (const dealt of proof.dealt) {
      if (dealt.card == null && !opened.has(dealt.index)) {
        add("skip", `Card ${dealt.index + 1} to ${names[dealt.player] || `player ${dealt.player}`}`, "hidden from you, not checked");
      }
    }
    add("info", "The server's own verdict", proof.ok ? "ok" : "not ok");
  }

  const MARKS = {pass: ["✔", "Pass"], fail: ["✘", "Fail"], skip: ["–", "Not checked"], info: ["ℹ", "Note"]};

  function rowAdder(list, tally) {
    return (state, title, reason, step) => {
      tally[state] = (tally[state] || 0) + 1;
      const row = document.createElement("li");
      row.className = `check ${state}`;
      const [mark, word] = MARKS[state];
      row.innerHTML = `<span class="mark" aria-hidden="true">${mark}</span><span class="sr">${word}: </span>`;
      const strong = document.createElement("strong");
      strong.textContent = title;
      row.append(strong, document.createTextNode(` ${reason}`));
      if (step !== undefined) row.dataset.step = String(step);
      list.append(row);
    };
  }

  function verdict(element, tally, error) {
    const failed = (tally.fail || 0) + (error ? 1 : 0);
    element.className = `verdict ${failed ? "fail" : tally.pass ? "pass" : "skip"}`;
    element.textContent = failed ? `${failed} failed` : tally.pass ? `${tally.pass} passed` : "nothing to check";
  }

  async function run(root, checks, name, body) {
    const list = root.querySelector(`#${name}-checks`);
    const tally = {};
    const add = rowAdder(list, tally);
    let error = null;
    try {
      if (!window.crypto || !crypto.subtle) throw new Error("this browser offers WebCrypto only over HTTPS or on localhost");
      await body(add);
    } catch (caught) {
      error = caught;
      add("fail", "Could not check", caught.message);
    }
    verdict(root.querySelector(`#${name}-verdict`), tally, error);
    checks[name] = failedOf(tally, error);
  }

  const failedOf = (tally, error) => (tally.fail || 0) + (error ? 1 : 0);

  async function replayChecks(root) {
    const names = JSON.parse(document.getElementById("player-names").textContent);
    const drawn = [...root.querySelectorAll(".step")].map((step) => step.dataset.hash);
    const done = {};
    let replay;
    try {
      const answer = await fetchJson(root.dataset.replayUrl);
      if (answer.status !== 200) throw new Error(`the replay answered ${answer.status}`);
      replay = answer.body;
    } catch (error) {
      replay = null;
      for (const name of ["chain", "proof"]) await run(root, done, name, () => { throw error; });
    }
    if (replay) {
      await run(root, done, "chain", (add) => chainChecks(replay, root.dataset.eventsUrl, drawn, add));
      await run(root, done, "proof", (add) => proofChecks(replay, root.dataset.proofUrl, names, add));
    }
    root.querySelector(".checks").dataset.state = "done";
    return done;
  }

  return {canonical, isoUtc, chainHash, checkEvent, deckOf, knownPack, sha256, bytesOf, replayChecks, PACK};
})();
