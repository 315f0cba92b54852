/**
 * Reads one XML document as a stream of records: every element with the record name (at any
 * depth) becomes an element tree plus its raw text, exactly as it stands in the file (the bytes
 * the payload hash is taken over). Everything outside records is only checked for
 * well-formedness.
 *
 * The parser is saxes: strict XML 1.0 well-formedness, no DTD processing. The internal DTD subset
 * of the USPTO files is skipped unread (the real data does not validate against it), external
 * entities and DTDs are never fetched (no XXE), and an entity that is not one of XML's five is an
 * error. Any well-formedness error, or an end of input before the root element closes (a
 * truncated download), throws an XmlFormatError naming the file, line and column.
 *
 * A record larger than MAX_RECORD_BYTES, or of more than MAX_RECORD_ELEMENTS elements, is
 * refused alone: once it is known to be over, its text is no longer kept (saxes still checks it),
 * and it is delivered with `refused` set, `raw` empty and only the elements read before the bound,
 * so its key (a serial number comes first) can still name it while the rest of the document loads.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { XmlElement } from './element';

/**
 * Largest record read, in bytes of UTF-8 (what its payload hash is taken over and its raw record
 * is stored as): half again the largest real USPTO case-file, 10.9 MB (serial 85951867, with
 * 26,496 Madrid history events). Bytes rather than characters because a CJK character is 2 bytes
 * of a JS string and 3 of UTF-8: a record of 16 Mi such characters peaked at 540–600 MB alone,
 * while one of 16 MiB of any text peaks at about 300 MB alone and under 470 MB late in a large
 * file (issue 18 asks for 500 MB).
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * Most elements in one record. An element of the tree holds about 160 bytes of heap however small
 * its markup (`<a/>` is 4 bytes), so a record of tiny elements under the byte bound could still
 * need 650 MB and exhaust the parse thread's heap. Real case-files average 41–50 bytes of XML an
 * element (the USPTO samples), so the largest (10.9 MB) has about 250,000 and one at the byte
 * bound about 400,000: 500,000 elements refuse no record the byte bound reads and hold at most
 * about 80 MB of tree.
 */
export const MAX_RECORD_ELEMENTS = 500_000;

type Bound = 'bytes' | 'elements';

export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: ${reason}`);
  }
}

export interface XmlRecord {
  element: XmlElement;
  /** The record's text from its `<` to the end of its closing tag; empty when refused. */
  raw: string;
  /** 1-based position among this document's records. */
  index: number;
  /** Line of the record's start tag. */
  line: number;
  /** Why the record is not read (over MAX_RECORD_BYTES or MAX_RECORD_ELEMENTS), or null. */
  refused: string | null;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4). */
const MAX_UTF8_PER_UNIT = 3;

export class XmlRecordReader {
  private readonly parser: SaxesParser;
  /** Open elements of the current record (empty outside records). */
  private readonly stack: XmlElement[] = [];
  /** Text since the current record's start (or the current chunk outside records). */
  private window = '';
  private windowStart = 0;
  private consumed = 0;
  private recordStart = -1;
  private recordLine = 0;
  /** UTF-8 bytes of the open record's text in the window; -1 until the record is first carried over. */
  private recordBytes = -1;
  /** The bound the open record is over, or null: its text is not kept, nor its elements from then on. */
  private skipping: Bound | null = null;
  /** Elements of the open record read so far. */
  private recordElements = 0;
  /** Elements opened inside the record since it is skipped, and not closed yet. */
  private skippedDepth = 0;
  private count = 0;
  /** The document's root element: its local name and namespace (null when it declares none). */
  root: { name: string; namespace: string | null } | null = null;

  constructor(
    private readonly file: string,
    private readonly recordName: string,
    private readonly onRecord: (record: XmlRecord) => void,
  ) {
    this.parser = new SaxesParser({ fileName: file, position: true });
    this.parser.on('error', (error) => {
      throw new XmlFormatError(this.file, this.parser.line, this.parser.column, error.message.replace(/^.*?:\d+:\d+: /, ''));
    });
    this.parser.on('opentag', (tag) => this.open(tag));
    this.parser.on('closetag', () => this.close());
    this.parser.on('text', this.addText);
    this.parser.on('cdata', this.addText);
  }

  /** Feeds the next piece of decoded text; records completed by it are delivered before it returns. */
  write(chunk: string): void {
    if (!this.carried(chunk)) {
      this.window = chunk;
      this.windowStart = this.consumed;
    }
    this.consumed += chunk.length;
    this.parser.write(chunk);
  }

  /** Ends the document: throws when it is incomplete (a truncated file). */
  end(): void {
    this.parser.close();
  }

  get records(): number {
    return this.count;
  }

  /** Stops the document here: an XmlFormatError at the position the reader has read to. */
  fail(reason: string): never {
    throw new XmlFormatError(this.file, this.parser.line, this.parser.column, reason);
  }

  /**
   * Whether the window now holds the open record's text followed by `chunk`: not outside records,
   * nor once the record's text before `chunk` is over the bound (the record is skipped from then
   * on). Only the open record's text is carried over: the window never holds more than one record
   * and one chunk.
   */
  private carried(chunk: string): boolean {
    if (this.stack.length === 0 || this.skipping !== null) return false;
    const carried = this.window.slice(this.recordStart - this.windowStart);
    // Once carried over, the window is a rope of chunks each counted when added (counting the rope
    // would flatten it); the first time, the record's text so far is the end of one chunk.
    if (this.recordBytes < 0) this.recordBytes = Buffer.byteLength(carried);
    if (this.recordBytes > MAX_RECORD_BYTES) {
      this.skip('bytes');
      return false;
    }
    this.window = carried + chunk;
    this.windowStart = this.recordStart;
    this.recordBytes += Buffer.byteLength(chunk);
    return true;
  }

  private skip(bound: Bound): void {
    this.skipping = bound;
    // Without a text handler saxes stops gathering the text; what it holds is handed over after
    // the record ends (before the next tag opens) and ignored then, as text outside records.
    this.parser.off('text');
  }

  private refusal(bound: Bound): string {
    const what =
      bound === 'bytes'
        ? `is larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB (${MAX_RECORD_BYTES} bytes of UTF-8)`
        : `has more than ${MAX_RECORD_ELEMENTS.toLocaleString('en-US')} elements`;
    return `<${this.recordName}> record ${this.count} (line ${this.recordLine}) ${what}: not read`;
  }

  private open(tag: SaxesTagPlain): void {
    if (this.skipping !== null) {
      this.skippedDepth++;
      return;
    }
    const name = localName(tag.name);
    if (this.root === null) {
      const prefix = tag.name.includes(':') ? tag.name.slice(0, tag.name.indexOf(':')) : null;
      this.root = { name, namespace: tag.attributes[prefix === null ? 'xmlns' : `xmlns:${prefix}`] ?? null };
    }
    if (this.stack.length === 0) {
      if (name !== this.recordName) return;
      // The start tag's "<" is the last one before the parser's position.
      this.recordStart = this.windowStart + this.window.lastIndexOf('<', this.parser.position - this.windowStart - 1);
      this.recordLine = this.parser.line;
      this.recordBytes = -1;
      this.recordElements = 0;
    }
    if (++this.recordElements > MAX_RECORD_ELEMENTS) {
      this.skip('elements');
      this.skippedDepth++;
      return;
    }
    const attributes: Record<string, string> = {};
    for (const key in tag.attributes) if (!key.startsWith('xmlns')) attributes[localName(key)] = tag.attributes[key]!;
    const element: XmlElement = { name, attributes, children: [], text: '' };
    this.stack[this.stack.length - 1]?.children.push(element);
    this.stack.push(element);
  }

  private close(): void {
    if (this.skippedDepth > 0) {
      this.skippedDepth--;
      return;
    }
    const element = this.stack.pop();
    if (element === undefined || this.stack.length > 0) return;
    this.count++;
    const raw = this.skipping !== null ? '' : this.window.slice(this.recordStart - this.windowStart, this.parser.position - this.windowStart);
    // Only a record of more than a third of the bound in UTF-16 units can be over it in UTF-8.
    const over = this.skipping ?? (raw.length > MAX_RECORD_BYTES / MAX_UTF8_PER_UNIT && Buffer.byteLength(raw) > MAX_RECORD_BYTES ? 'bytes' : null);
    if (this.skipping !== null) {
      this.skipping = null;
      this.parser.on('text', this.addText);
    }
    this.onRecord({ element, raw: over ? '' : raw, index: this.count, line: this.recordLine, refused: over ? this.refusal(over) : null });
  }

  private readonly addText = (text: string): void => {
    const current = this.stack[this.stack.length - 1];
    if (current !== undefined && this.skipping === null) current.text += text;
  };
}
