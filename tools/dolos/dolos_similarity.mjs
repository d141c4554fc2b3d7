// Code similarity of submitted Python files against reference files, with
// Dolos (@dodona/dolos-lib): what `mlebench audit` runs once per agent run.
//
//   node dolos_similarity.mjs NODE_MODULES < request.json > result.json
//
// NODE_MODULES is the installation install_dolos.py makes. The request names
// no file: it carries the texts (the caller reads, bounds and checks the
// files), so nothing here touches the file system but the installation:
//
//   {"references": [{"text": "..."}, ...], "submitted": [{"text": "..."}, ...]}
//
// The result, on stdout:
//
//   {"dolos_lib": "3.5.1", "kgram_length": 23, "kgrams_in_window": 17,
//    "pairs": [{"submitted": I, "reference": J, "similarity": S,
//               "longest_fragment": L, "overlap": O,
//               "submitted_covered": ..., "reference_covered": ...,
//               "submitted_kgrams": ..., "reference_kgrams": ...}, ...],
//    "skipped": [{"side": "submitted" | "references", "index": I, "reason": "..."}]}
//
// I and J index the request's lists. A pair is listed when its two files
// share at least one fingerprint (every other pair has similarity 0), in
// the order (submitted, reference). The metrics are those of Dolos's Pair
// (the same class behind Dolos's own reports and upstream's plagiarism
// detector), with Dolos's default options: *_kgrams counts the file's
// fingerprints (the k-grams of 23 tokens that winnowing kept), *_covered
// those of them the other file also has; similarity = (submitted_covered +
// reference_covered) / (submitted_kgrams + reference_kgrams); overlap =
// submitted_covered + reference_covered; longest_fragment is the longest run
// of shared fingerprints in the same order in both files. Comments are ignored, identifiers
// too (Dolos compares the syntax trees' node types), so a copy with every
// name changed has similarity 1.
//
// A file that cannot be tokenized (e.g. nesting too deep for the tokenizer's
// recursion) is listed in "skipped" with the error, and left out. Exit
// status 0 with the result, 1 with a message on stderr for anything else.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

function fail(message) {
  process.stderr.write(`dolos_similarity: ${message}\n`);
  process.exit(1);
}

if (process.argv.length !== 3) fail("usage: dolos_similarity.mjs NODE_MODULES < request.json");
const modules = path.resolve(process.argv[2]);
const require = createRequire(path.join(modules, "dolos_similarity"));
const libDir = path.join(modules, "@dodona", "dolos-lib");
const lib = await import(pathToFileURL(path.join(libDir, "dist", "index.js")).href);
const { CustomTreeSitterLanguage, File, FingerprintIndex, Options } = lib;
const dolosVersion = JSON.parse(readFileSync(path.join(libDir, "package.json"), "utf8")).version;

// The Python grammar of @dodona/dolos-parsers, as its index.js loads it (the
// index itself loads all 19 grammars, of which only Python is installed).
const parsers = path.join(modules, "@dodona", "dolos-parsers");
const grammar = require(path.join(parsers, "build", "Release", "tree_sitter_python_binding.node"));
grammar.nodeTypeInfo = require(path.join(parsers, "python", "src", "node-types.json"));
const python = new CustomTreeSitterLanguage("python", [".py", ".py3"], async () => grammar);

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
let request;
try {
  request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
} catch (e) {
  fail(`the request is not JSON: ${e.message}`);
}
const references = request.references ?? [];
const submitted = request.submitted ?? [];
if (!Array.isArray(references) || !Array.isArray(submitted)) fail("references and submitted must be lists");

const options = new Options({});
const tokenizer = await python.createTokenizer({ includeComments: options.includeComments });
const skipped = [];
function tokenize(side, list) {
  const files = [];
  list.forEach((item, index) => {
    if (typeof item?.text !== "string") fail(`${side}[${index}] has no text`);
    try {
      files.push({ index, file: tokenizer.tokenizeFile(new File(`${side}/${index}.py`, item.text)) });
    } catch (e) {
      skipped.push({ side, index, reason: `Dolos cannot tokenize it: ${e?.message ?? e}` });
    }
  });
  return files;
}
const refs = tokenize("references", references);
const subs = tokenize("submitted", submitted);

// As Dolos.analyze() builds its index: Dolos's default k-gram length and
// window, no fingerprint filtered out for being common.
const index = new FingerprintIndex(options.kgramLength, options.kgramsInWindow, options.kgramData);
index.updateMaxFingerprintFileCount(undefined);
index.addFiles([...refs, ...subs].map(f => f.file));

const side = new Map();  // file id -> ["submitted" | "reference", index]
for (const f of subs) side.set(f.file.id, ["submitted", f.index, f.file]);
for (const f of refs) side.set(f.file.id, ["reference", f.index, f.file]);
const candidates = new Map();  // "i j" -> [submitted file, reference file]
for (const fingerprint of index.sharedFingerprints()) {
  const files = fingerprint.files().map(f => side.get(f.id)).filter(Boolean);
  for (const [sideA, i, fileA] of files) {
    if (sideA !== "submitted") continue;
    for (const [sideB, j, fileB] of files) {
      if (sideB === "reference") candidates.set(`${i} ${j}`, [i, j, fileA, fileB]);
    }
  }
}
const pairs = [];
for (const [i, j, subFile, refFile] of candidates.values()) {
  const pair = index.getPair(subFile, refFile);
  const subIsLeft = pair.leftFile === subFile;
  pairs.push({
    submitted: i,
    reference: j,
    similarity: pair.similarity,
    longest_fragment: pair.longest,
    overlap: pair.overlap,
    submitted_covered: subIsLeft ? pair.leftCovered : pair.rightCovered,
    reference_covered: subIsLeft ? pair.rightCovered : pair.leftCovered,
    submitted_kgrams: subIsLeft ? pair.leftTotal : pair.rightTotal,
    reference_kgrams: subIsLeft ? pair.rightTotal : pair.leftTotal,
  });
}
pairs.sort((a, b) => a.submitted - b.submitted || a.reference - b.reference);
process.stdout.write(JSON.stringify({
  dolos_lib: dolosVersion,
  kgram_length: options.kgramLength,
  kgrams_in_window: options.kgramsInWindow,
  pairs,
  skipped,
}) + "\n");
