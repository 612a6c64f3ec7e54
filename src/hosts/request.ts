import type { McpTool } from '../catalog/types.ts';
import type { HostMeasure } from './measure.ts';
import type { HostMessage } from './types.ts';

/** A request as a host sends it: the system text, the messages, the tools. */
export interface HostRequest {
  system: string;
  messages: readonly HostMessage[];
  tools: readonly McpTool[];
}

/**
 * The input tokens of a whole request as a host profile counts it: the text of the system
 * prompt and of every message, the framing the profile's source publishes for messages, and
 * the tool list as the profile renders it (with its per-request tokens). Live mode puts it
 * beside the provider's own count of the same request, which gives each profile's error.
 */
export function hostRequestTokens(host: HostMeasure, r: HostRequest): number {
  const messages: HostMessage[] = r.system ? [{ role: 'system', text: r.system }, ...r.messages] : [...r.messages];
  const text = messages.reduce((n, m) => n + host.tokens.count(m.text), 0);
  return text + host.profile.messageFraming(messages, host.tokens) + host.listTokens(r.tools);
}
