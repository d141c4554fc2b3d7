// The independent side of parquet_hyparquet_diff_test: the pure-JavaScript
// Parquet implementation hyparquet (reader) and hyparquet-writer, loaded from
// the node_modules directory given as the last argument.
//
//   node parquet_hyparquet_diff_test.mjs gen <out_dir> <seed> <node_modules>
//     writes hyparquet-writer files of random tables in several layouts;
//   node parquet_hyparquet_diff_test.mjs dump <file> <node_modules>
//     prints the file's content as hyparquet reads it, in the line format of
//     CanonicalText in parquet_hyparquet_diff_test.cc, converted the way
//     pandas converts pyarrow columns (an integer column holding a null
//     becomes float64).
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [mode, ...args] = process.argv.slice(2)
const nodeModules = args[args.length - 1]
const load = (pkg) => import(pathToFileURL(path.join(nodeModules, pkg, 'src', 'index.js')).href)

function doubleBits(v) {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, v, true)
  return view.getBigUint64(0, true).toString(16)
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

async function dump(file) {
  const { parquetMetadata, parquetReadObjects } = await load('hyparquet')
  const buf = fs.readFileSync(file)
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
  const meta = parquetMetadata(ab)
  const rows = Number(meta.num_rows) === 0 ? [] : await parquetReadObjects({ file: ab })
  const out = []
  for (const col of meta.schema.slice(1)) {
    out.push(`col ${col.name}`)
    const values = rows.map((r) => r[col.name])
    const hasNull = values.some((v) => v === null || v === undefined)
    for (const v of values) {
      if (v === null || v === undefined) {
        out.push('null')
      } else if (col.type === 'INT32' || col.type === 'INT64') {
        out.push(hasNull ? `d:${doubleBits(Number(v))}` : `i:${BigInt(v).toString()}`)
      } else if (col.type === 'FLOAT' || col.type === 'DOUBLE') {
        out.push(Number.isNaN(v) ? 'null' : `d:${doubleBits(v)}`)
      } else if (col.type === 'BOOLEAN') {
        out.push(`b:${v ? 1 : 0}`)
      } else if (typeof v === 'string') {
        out.push(`s:${hex(new TextEncoder().encode(v))}`)
      } else {
        out.push(`s:${hex(v)}`)
      }
    }
  }
  process.stdout.write(out.join('\n') + '\n')
}

// mulberry32: a small seeded generator, so that runs repeat.
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function columns(n, r) {
  const maybe = (f, p = 0.2) => () => (r() < p ? null : f())
  const int32 = () => Math.floor(r() * 4294967296) - 2147483648
  const int64 = () => BigInt(Math.floor(r() * 2 ** 52)) * (r() < 0.5 ? -1n : 1n)
  const real = () => (r() - 0.5) * 10 ** Math.floor(r() * 20 - 10)
  const words = ['', 'a', 'b', 'ice', 'cube', 'neutrino', 'caf\u00e9', '\u6c34']
  const gen = (f) => Array.from({ length: n }, f)
  return [
    { name: 'i32', data: gen(int32), type: 'INT32', nullable: false },
    { name: 'i32n', data: gen(maybe(int32)), type: 'INT32' },
    { name: 'small', data: gen(() => Math.floor(r() * 5)), type: 'INT32' },
    { name: 'i64', data: gen(int64), type: 'INT64', nullable: false },
    { name: 'i64n', data: gen(maybe(int64)), type: 'INT64' },
    { name: 'f32', data: gen(maybe(() => Math.fround(real()))), type: 'FLOAT' },
    { name: 'f64', data: gen(maybe(real)), type: 'DOUBLE' },
    { name: 'f64dict', data: gen(() => Math.floor(r() * 3) / 4), type: 'DOUBLE', nullable: false },
    { name: 'flag', data: gen(() => r() < 0.3), type: 'BOOLEAN', nullable: false },
    { name: 'flagn', data: gen(maybe(() => r() < 0.5)), type: 'BOOLEAN' },
    { name: 'word', data: gen(maybe(() => words[Math.floor(r() * words.length)])), type: 'STRING' },
    { name: 'text', data: gen(() => `row ${Math.floor(r() * 1e9)}`), type: 'STRING', nullable: false },
  ]
}

async function gen(dir, seed) {
  const { parquetWriteBuffer } = await load('hyparquet-writer')
  const r = rng(seed)
  const layouts = [
    { rows: 1 },
    { rows: 50, codec: 'UNCOMPRESSED' },
    { rows: 300, rowGroupSize: 64, pageSize: 256 },
    { rows: 2000, pageSize: 1000, statistics: false },
    { rows: 2000, codec: 'UNCOMPRESSED', rowGroupSize: [100, 700] },
  ]
  layouts.forEach((layout, i) => {
    const { rows, ...options } = layout
    const buffer = parquetWriteBuffer({ columnData: columns(rows, r), ...options })
    fs.writeFileSync(path.join(dir, `hyparquet_${seed}_${i}.parquet`), Buffer.from(buffer))
  })
}

if (mode === 'gen') {
  await gen(args[0], Number(args[1]))
} else if (mode === 'dump') {
  await dump(args[0])
} else {
  throw new Error(`unknown mode ${mode}`)
}
