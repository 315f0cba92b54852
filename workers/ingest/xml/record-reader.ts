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
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { XmlElement } from './element';

/** Largest record accepted, in characters (the largest real USPTO case-file is about 11 MB). */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;

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
  /** The record's text from its `<` to the end of its closing tag. */
  raw: string;
  /** 1-based position among this document's records. */
  index: number;
  /** Line of the record's start tag. */
  line: number;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

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
  private count = 0;

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
    this.parser.on('text', (text) => this.addText(text));
    this.parser.on('cdata', (text) => this.addText(text));
  }

  /** Feeds the next piece of decoded text; records completed by it are delivered before it returns. */
  write(chunk: string): void {
    if (this.stack.length === 0) {
      this.window = chunk;
      this.windowStart = this.consumed;
    } else {
      // Only the open record's text is carried over: the window never holds more than one record and one chunk.
      this.window = this.window.slice(this.recordStart - this.windowStart) + chunk;
      this.windowStart = this.recordStart;
      if (this.window.length > MAX_RECORD_CHARS) this.fail(`<${this.recordName}> record ${this.count + 1} exceeds ${MAX_RECORD_CHARS} characters`);
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

  private open(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    if (this.stack.length === 0) {
      if (name !== this.recordName) return;
      // The start tag's "<" is the last one before the parser's position.
      this.recordStart = this.windowStart + this.window.lastIndexOf('<', this.parser.position - this.windowStart - 1);
      this.recordLine = this.parser.line;
    }
    const attributes: Record<string, string> = {};
    for (const key in tag.attributes) if (!key.startsWith('xmlns')) attributes[localName(key)] = tag.attributes[key]!;
    const element: XmlElement = { name, attributes, children: [], text: '' };
    this.stack[this.stack.length - 1]?.children.push(element);
    this.stack.push(element);
  }

  private close(): void {
    const element = this.stack.pop();
    if (element === undefined || this.stack.length > 0) return;
    this.count++;
    const raw = this.window.slice(this.recordStart - this.windowStart, this.parser.position - this.windowStart);
    this.onRecord({ element, raw, index: this.count, line: this.recordLine });
  }

  private addText(text: string): void {
    const current = this.stack[this.stack.length - 1];
    if (current !== undefined) current.text += text;
  }
}
