/**
 * `ptxf batch`: JSON Lines in, one JSON line out per input line, in order (see batch-line.ts for
 * the line contract). Streaming with constant memory: input is split into lines as chunks
 * arrive, answers are written in chunks of about 64 KiB, and writing waits for the output
 * stream to drain (backpressure), so a million lines need no more memory than ten.
 *
 * Every input line gets exactly one output line — blank lines included (an error, code `json`) —
 * so answers can be matched to questions by position as well as by id. A line longer than
 * MAX_LINE_CHARS is answered with a `json` error without being held in memory.
 *
 * When the reader goes away (`ptxf batch | head -1`: EPIPE), the batch stops reading, writes
 * nothing more and ends quietly; the exit status then covers the lines answered so far.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import type { CliIO } from './io.ts';
import { BatchCaches, processBatchLine, type BatchAnswer } from './batch-line.ts';

export const BATCH_USAGE = [
  'usage: ptxf batch < requests.jsonl > answers.jsonl',
  '  input line:  {"id": 1, "instr": "fma.rn.relu.bf16x2", "target": "sm_90", "ptx": "8.6",',
  '                "a": "0x3c003c00", "b": "0x40004000", "c": "0x00000000", "oob": ["b"], "trace": false}',
  '               (neither target nor ptx: sm_90 with PTX ISA 8.6, as on the page; ptx alone:',
  '                the newest target that ptx knows; target alone: the newest ptx; operands are',
  '                register bits with 0x or 0b, as wide as the register, or a value such as "1.5"',
  "                rounded to the operand's format by round-to-nearest-even, in every lane;",
  '                oob: operands holding OOB-NaN in every lane, whose bits may then be left out)',
  '               cvt takes "a", "b", "e", "f", "rbits" as its form has them, each as wide as its',
  '               register (.f64 16 digits, e4m3x2 4, e2m1x2 2, rbits 8), e.g.',
  '               {"instr": "cvt.rn.satfinite.e4m3x2.f32", "a": "0x43fa0000", "b": "0x40880000"}',
  '               mma / wgmma take "a" and "b" as lists of k elements (bits of the format\'s width,',
  '               tf32 its .b32, or values) and "c" as one, under the target\'s tensor-core model:',
  '               {"instr": "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "target": "sm_80",',
  '                "a": ["0x3c00", "1.5", …8 elements], "b": [ …8 ], "c": "0x3f800000"}',
  '               a block-scaled mma (.block_scale) also takes "scale_a" and "scale_b": the scales of',
  '               the row and of the column, one per chunk of .scale_vec_size (UE8M0/UE4M3 bits or',
  '               values), e.g. "scale_a": ["0x7f", "0x80"]; its target is sm_120a or the sm_120f family',
  '               "vs": "fma.rn.bf16x2" or "unfused" (optional): compare with a variant on the same',
  "               operand values (carried by value into its formats; unfused: an fma's mul then add);",
  '               any form beside any other, a cvt too (e.g. "vs": "cvt.rn.satfinite.e5m2x2.f32")',
  '  output line: {"id": 1, "ok": true, "d": "0x3c803c80"}  (+ "steps": per-element traces when trace is true,',
  '               each step described field by field in docs/trace.md; d as wide as its register)',
  '               {"id": 1, "ok": false, "error": {"code": "operand", "message": "line 1: ..."}}',
  '               with "vs": + "vs_ok": true, "vs_d": "0x…" (the variant\'s register), or "vs_ok": false,',
  '               "vs_error": {"code", "message"}: syntax (unreadable), target or ptx-version (the variant',
  "               is judged for the line's target and PTX ISA version), variant (no unfused sequence);",
  "               the line's own answer stands",
  '  on sm_90 and sm_90a, tanh.approx / ex2.approx give the results measured on an H100',
  '  error codes: json, syntax, target, ptx-version, operand, measured (its tables unreadable);',
  '               every input line, blank ones included, gets exactly one output line, in order',
  '  ids are echoed as JSON.parse reads them (use strings for integers beyond 2^53)',
  '  exit status: 0 when every line was ok, 1 otherwise, 2 usage error',
];

export const MAX_LINE_CHARS = 8 * 1024 * 1024;
const FLUSH_CHARS = 64 * 1024;
/** Lines answered before their answers are read (see answerAll). */
const BLOCK_LINES = 4096;

/** Text chunks (strings or UTF-8 bytes), e.g. a Readable such as process.stdin, or an array. */
export type BatchInput = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** Where answers go: text made of whole lines, each ending in '\n'. */
export interface BatchSink {
  write(text: string): void | Promise<void>;
  /** True once the reader has gone away; the batch then stops. */
  readonly closed: boolean;
}

export interface BatchSummary {
  readonly lines: number;
  readonly failed: number;
  /** True when the output was closed before the input ended. */
  readonly stoppedEarly: boolean;
}

/** A sink over a Node stream: waits for 'drain' and treats EPIPE and friends as "reader gone". */
export function streamSink(stream: Writable): BatchSink {
  let closed = false;
  const markClosed = () => {
    closed = true;
  };
  // Without a listener an EPIPE would surface as an uncaught exception with a stack trace.
  stream.on('error', markClosed);
  stream.on('close', markClosed);
  return {
    get closed() {
      return closed || stream.destroyed;
    },
    write(text: string): void | Promise<void> {
      if (closed || stream.destroyed) return;
      if (stream.write(text)) return;
      return new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('error', done);
          stream.off('close', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('error', done);
        stream.on('close', done);
      });
    },
  };
}

/** A sink over a CliIO (tests, or any caller that wants lines). */
export function ioSink(io: CliIO): BatchSink {
  return {
    closed: false,
    write(text: string): void {
      const lines = text.split('\n');
      lines.pop(); // text ends with '\n'
      for (const line of lines) io.out(line);
    },
  };
}

/**
 * Splits text chunks (strings or UTF-8 bytes) into lines; '\r\n' is accepted. A line too long to
 * hold is given as `null` once its end arrives, after its text has been dropped. Synchronous,
 * a chunk at a time: the lines of a chunk cost no promise each.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private overlong = false;

  private finish(line: string): string | null {
    return this.overlong || line.length > MAX_LINE_CHARS
      ? null
      : line.endsWith('\r')
        ? line.slice(0, -1)
        : line;
  }

  /** The whole lines completed by `chunk`; the rest waits for the next chunk or end(). */
  push(chunk: string | Uint8Array): (string | null)[] {
    const text =
      typeof chunk === 'string'
        ? chunk
        : this.decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    const lines: (string | null)[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const line = this.overlong ? '' : this.pending + text.slice(start, nl);
      this.pending = '';
      lines.push(this.finish(line));
      this.overlong = false;
      start = nl + 1;
    }
    if (!this.overlong) {
      this.pending += text.slice(start);
      if (this.pending.length > MAX_LINE_CHARS) {
        this.overlong = true;
        this.pending = '';
      }
    }
    return lines;
  }

  /** The last line, when the input does not end with a newline. */
  end(): (string | null)[] {
    const rest = this.pending + this.decoder.end();
    return this.overlong || rest.length > 0 ? [this.finish(rest)] : [];
  }
}

function overlongLine(lineNo: number): BatchAnswer {
  const message = `line ${lineNo}: line longer than ${MAX_LINE_CHARS} characters`;
  return {
    ok: false,
    json: `{"id":null,"ok":false,"error":{"code":"json","message":"${message}"}}`,
  };
}

/**
 * Answer every line of `input` into `output`. Returns the exit status: 0 when every line was
 * ok, 1 otherwise.
 */
export async function runBatch(input: BatchInput, output: BatchSink | CliIO): Promise<number> {
  const summary = await runBatchSummary(input, output);
  return summary.failed === 0 ? 0 : 1;
}

export async function runBatchSummary(
  input: BatchInput,
  output: BatchSink | CliIO,
): Promise<BatchSummary> {
  const sink = 'write' in output ? output : ioSink(output);
  const caches = new BatchCaches();
  let lines = 0;
  let failed = 0;
  // Answers are appended to one string (V8 joins the pieces once, when it is written).
  let buffer = '';
  const flush = async () => {
    if (buffer.length === 0) return;
    const text = buffer;
    buffer = '';
    if (!sink.closed) await sink.write(text);
  };
  const splitter = new LineSplitter();
  const answers: BatchAnswer[] = [];
  /**
   * Answers the lines of one chunk, a block at a time: the block is answered, then its answers
   * are read, so the untraced lines of one shape are evaluated together (batch-quick.ts).
   * False when the reader went away.
   */
  const answerAll = async (chunkLines: readonly (string | null)[]): Promise<boolean> => {
    for (let from = 0; from < chunkLines.length; from += BLOCK_LINES) {
      const to = Math.min(from + BLOCK_LINES, chunkLines.length);
      answers.length = 0;
      for (let i = from; i < to; i++) {
        const line = chunkLines[i]!;
        const lineNo = lines + 1 + i - from;
        answers.push(line === null ? overlongLine(lineNo) : processBatchLine(line, lineNo, caches));
      }
      for (const answer of answers) {
        lines++;
        if (!answer.ok) failed++;
        buffer += `${answer.json}\n`;
        if (buffer.length >= FLUSH_CHARS) {
          await flush();
          if (sink.closed) return false;
        }
      }
    }
    return true;
  };
  for await (const chunk of input) {
    if (!(await answerAll(splitter.push(chunk)))) return { lines, failed, stoppedEarly: true };
  }
  if (!(await answerAll(splitter.end()))) return { lines, failed, stoppedEarly: true };
  await flush();
  return { lines, failed, stoppedEarly: sink.closed };
}
