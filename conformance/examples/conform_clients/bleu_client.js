#!/usr/bin/env node
// Reference JavaScript client of the `assay conform` protocol (version 1): a small BLEU with
// sacrebleu 2.x defaults, written from the published definitions (Papineni et al. 2002; the
// mteval-v13a tokenisation rules; sacrebleu's documented exp smoothing and effective order).
//
//   assay conform "cmd:node conformance/examples/conform_clients/bleu_client.js" --identify
//   assay conform "cmd:node .../bleu_client.js --tokenize none" --identify   (pre-split tokens)
//
// Corpus BLEU = BP * exp(mean_n log p_n) on summed statistics; p_n = correct_n / total_n with
// clipping by the maximum count in any one reference; BP = exp(1 - r/c) when c < r, r = closest
// reference length (ties -> shorter). An order with no matches gets 1 / (2^k * total_n) (exp
// smoothing, k counting such orders); an order without hypothesis n-grams stops the sum (its
// precision is 0). A corpus with no matching unigram scores 0. Sentence level turns effective
// order on (the mean runs over the orders that have hypothesis n-grams).
"use strict";

const readline = require("readline");

const MAX_ORDER = 4;
const LOG_ZERO = -9999999999;
// Python's str.split() whitespace (JavaScript's \s differs: no U+001C..U+001F or U+0085, plus U+FEFF)
const PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

function pySplit(text) {
  return text.split(PY_SPACE).filter((t) => t.length > 0);
}

function pyRstrip(text) {
  let end = text.length;
  while (end > 0 && PY_SPACE.test(text[end - 1])) end -= 1;
  return text.slice(0, end);
}

// mteval-v13a tokenisation as published: strip <skipped>, join "-\n", unescape four entities,
// pad punctuation and symbols, split "." and "," except between digits, split "-" after a digit.
function tok13a(line) {
  line = line.split("<skipped>").join("").split("-\n").join("").split("\n").join(" ");
  if (line.includes("&")) {
    line = line.split("&quot;").join('"').split("&amp;").join("&").split("&lt;").join("<").split("&gt;").join(">");
  }
  line = ` ${line} `;
  line = line.replace(/([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/gu, " $1 ");
  line = line.replace(/([^0-9])([\.,])/gu, "$1 $2 ");
  line = line.replace(/([\.,])([^0-9])/gu, " $1 $2");
  line = line.replace(/([0-9])(-)/gu, "$1 $2 ");
  return pySplit(line);
}

function tokenize(line, mode) {
  if (mode === "none") return pySplit(line);
  return tok13a(pyRstrip(line));
}

function ngramCounts(tokens, n) {
  const counts = new Map();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join("\u0001");
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

function segmentStats(hyp, refs, mode) {
  const h = tokenize(hyp, mode);
  const rs = refs.filter((r) => r !== null && r !== undefined).map((r) => tokenize(r, mode));
  let refLen = 0;
  let best = Infinity;
  for (const r of rs) {
    const d = Math.abs(r.length - h.length);
    if (d < best || (d === best && r.length < refLen)) {
      best = d;
      refLen = r.length;
    }
  }
  const correct = [];
  const total = [];
  for (let n = 1; n <= MAX_ORDER; n++) {
    const hc = ngramCounts(h, n);
    const maxRef = new Map();
    for (const r of rs) {
      for (const [g, c] of ngramCounts(r, n)) maxRef.set(g, Math.max(maxRef.get(g) || 0, c));
    }
    let m = 0;
    for (const [g, c] of hc) m += Math.min(c, maxRef.get(g) || 0);
    correct.push(m);
    total.push(Math.max(0, h.length - n + 1));
  }
  return { hypLen: h.length, refLen, correct, total };
}

function bleu(stats, effectiveOrder) {
  const { hypLen, refLen, correct, total } = stats;
  if (correct[0] === 0) return { score: 0, precisions: [0, 0, 0, 0], bp: 0 };
  const bp = hypLen < refLen ? (hypLen > 0 ? Math.exp(1 - refLen / hypLen) : 0) : 1;
  const precisions = [0, 0, 0, 0];
  let smooth = 1;
  let order = MAX_ORDER;
  for (let n = 0; n < MAX_ORDER; n++) {
    if (total[n] === 0) break;
    if (effectiveOrder) order = n + 1;
    if (correct[n] === 0) {
      smooth *= 2;
      precisions[n] = 100 / (smooth * total[n]);
    } else {
      precisions[n] = (100 * correct[n]) / total[n];
    }
  }
  let sum = 0;
  for (let n = 0; n < order; n++) sum += precisions[n] > 0 ? Math.log(precisions[n]) : LOG_ZERO;
  return { score: bp * Math.exp(sum / order), precisions, bp };
}

function sum(statsList) {
  const out = { hypLen: 0, refLen: 0, correct: [0, 0, 0, 0], total: [0, 0, 0, 0] };
  for (const s of statsList) {
    out.hypLen += s.hypLen;
    out.refLen += s.refLen;
    for (let n = 0; n < MAX_ORDER; n++) {
      out.correct[n] += s.correct[n];
      out.total[n] += s.total[n];
    }
  }
  return out;
}

function scoreCase(msg, mode) {
  const segs = msg.hyps.map((h, i) => segmentStats(h, msg.refs.map((s) => s[i]), mode));
  if (msg.level === "sentence") {
    const results = segs.map((s) => bleu(s, true));
    return { score: results.map((r) => r.score) };
  }
  const total = sum(segs);
  const r = bleu(total, false);
  return {
    score: r.score,
    components: { counts: total.correct, totals: total.total, sys_len: total.hypLen, ref_len: total.refLen },
  };
}

function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf("--tokenize");
  const mode = i >= 0 ? args[i + 1] : "13a";
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    let reply;
    if (msg.cmd === "start") {
      reply = {
        version: 1,
        implementation: {
          name: "bleu.js", version: "0.1.0", language: "javascript", metrics: ["bleu"],
          shape: `sacrebleu-like BLEU, tokenize ${mode}`, profile: "sacrebleu", knobs: false,
          levels: ["corpus", "sentence"],
        },
      };
    } else if (msg.cmd === "case") {
      try {
        reply = { id: msg.id, ...scoreCase(msg, mode) };
      } catch (err) {
        reply = { id: msg.id, error: String(err) };
      }
    } else if (msg.cmd === "stop") {
      rl.close();
      return;
    } else {
      process.stderr.write(`bleu.js: unknown command ${msg.cmd}\n`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

main();
