import { fieldValue, parsePacketLenient } from './packet.ts';
import { AACP_VERSION, isKnownDom, isKnownKey, isKnownTask, PRIORITY_VALUES } from './vocabulary.ts';

/**
 * The AACP v1.1 validator, rule for rule from draft §7 (with the structural MUSTs of §4 that
 * §7's checks presuppose). Errors block transmission; warnings are logged and never block
 * (§7: "Warnings SHOULD be logged but MUST NOT prevent transmission"). Unknown TASK/DOM values
 * and unknown keys only warn (§5.1, §5.2, §4.3, §14: forward compatibility).
 */

export type ErrorRule =
  | 'task-missing' // §7: Field 0 (TASK) is present
  | 'dom-missing' // §7: Field 1 (DOM) is present
  | 'return-missing' // §7: a return: named field is present and non-empty
  | 'aacp-missing' // §7: an aacp: named field is present (§14: and specifies the version)
  | 'empty-slot' // §4: empty positional slots MUST NOT appear
  | 'unnamed-field'; // §4: all other fields MUST be named key:value pairs

export type WarningRule =
  | 'task-unknown' // §7 / §5.1 (MUST warn, MUST NOT reject)
  | 'dom-unknown' // §7 / §5.2
  | 'p-missing' // §7
  | 'p-invalid' // §5.3: p accepts 1, 2, 3
  | 'version-mismatch' // §7 / §14 (MUST NOT reject on mismatch alone)
  | 'sentiment-without-tone' // §7
  | 'ltv-without-ccy' // §7
  | 'unknown-key'; // §7 / §4.3

export interface Finding<R extends string> {
  rule: R;
  section: string;
  message: string;
}

export interface ValidationResult {
  /** True when there is no error: the packet may be transmitted. */
  valid: boolean;
  errors: Finding<ErrorRule>[];
  warnings: Finding<WarningRule>[];
}

export function validatePacket(text: string): ValidationResult {
  const errors: Finding<ErrorRule>[] = [];
  const warnings: Finding<WarningRule>[] = [];
  const { packet, issues, segments } = parsePacketLenient(text);

  if (packet.task === '') errors.push({ rule: 'task-missing', section: '§7, §4.1', message: 'Field 0 (TASK) is missing or empty' });
  else if (!isKnownTask(packet.task)) {
    warnings.push({ rule: 'task-unknown', section: '§7, §5.1', message: `TASK ${JSON.stringify(packet.task)} is not a v1.1 value` });
  }
  if (segments < 2 || packet.dom === '')
    errors.push({ rule: 'dom-missing', section: '§7, §4.1', message: 'Field 1 (DOM) is missing or empty' });
  else if (!isKnownDom(packet.dom)) {
    warnings.push({ rule: 'dom-unknown', section: '§7, §5.2', message: `DOM ${JSON.stringify(packet.dom)} is not a v1.1 value` });
  }

  for (const issue of issues) {
    if (issue.index < 2) continue; // reported as task-missing / dom-missing above
    if (issue.kind === 'empty-slot') {
      errors.push({ rule: 'empty-slot', section: '§4', message: `field ${issue.index} is an empty slot` });
    } else {
      errors.push({
        rule: 'unnamed-field',
        section: '§4',
        message: `field ${issue.index} (${JSON.stringify(issue.segment)}) is not a key:value pair`,
      });
    }
  }

  const ret = fieldValue(packet, 'return');
  if (ret === undefined || ret.trim() === '') {
    errors.push({ rule: 'return-missing', section: '§7, §4.2', message: 'a non-empty return: field is required' });
  }
  const version = fieldValue(packet, 'aacp');
  if (version === undefined || version.trim() === '') {
    errors.push({ rule: 'aacp-missing', section: '§7, §4.2, §14', message: 'an aacp: field specifying the protocol version is required' });
  } else if (version !== AACP_VERSION) {
    warnings.push({ rule: 'version-mismatch', section: '§7, §14', message: `aacp:${version} but this validator speaks ${AACP_VERSION}` });
  }

  const p = fieldValue(packet, 'p');
  if (p === undefined) warnings.push({ rule: 'p-missing', section: '§7', message: 'no p: (priority) field; receivers assume 2' });
  else if (!(PRIORITY_VALUES as readonly string[]).includes(p)) {
    warnings.push({ rule: 'p-invalid', section: '§5.3', message: `p:${p} is not 1, 2 or 3` });
  }

  const keys = new Set(packet.fields.map((f) => f.key));
  if (keys.has('sentiment') && !keys.has('tone')) {
    warnings.push({ rule: 'sentiment-without-tone', section: '§7', message: 'sentiment: present without tone:' });
  }
  if (keys.has('ltv') && !keys.has('ccy')) {
    warnings.push({ rule: 'ltv-without-ccy', section: '§7', message: 'ltv: present without ccy:' });
  }
  for (const key of keys) {
    if (!isKnownKey(key)) warnings.push({ rule: 'unknown-key', section: '§7, §4.3', message: `unknown field key ${JSON.stringify(key)}` });
  }

  return { valid: errors.length === 0, errors, warnings };
}

export class AacpValidationError extends Error {
  constructor(
    readonly packetText: string,
    readonly errors: Finding<ErrorRule>[],
  ) {
    super(
      `AACP packet rejected before transmission: ${errors.map((e) => `${e.rule} (${e.section}): ${e.message}`).join('; ')}\n  ${packetText}`,
    );
    this.name = 'AacpValidationError';
  }
}

/**
 * The transmission gate (§7, §15: "MUST NOT execute actions based on unvalidated packets"):
 * throws on any error, returns the warnings for logging otherwise.
 */
export function assertTransmittable(text: string): Finding<WarningRule>[] {
  const result = validatePacket(text);
  if (!result.valid) throw new AacpValidationError(text, result.errors);
  return result.warnings;
}
