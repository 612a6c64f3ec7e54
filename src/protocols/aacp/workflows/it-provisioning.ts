import { emit, type EncodedHop } from './types.ts';

/**
 * IT provisioning rule-based encoder (draft §6.1: "ITEncoder, 6 coordination hops"). Hop 1
 * reproduces the draft's §4.4 "Build IT user account" packet byte for byte; the other five are
 * this harness's design in the same style.
 */

export interface ItOnboardingInput {
  /** Directory user name, e.g. j.smith (the draft's example). */
  username: string;
  returnAgent?: string;
  /** Hop 1 return fields; draft default email,dept,grp,pwd_reset. */
  accountFields?: readonly string[];
  badgeZones?: readonly string[];
}

export const IT_HOPS = ['create-account', 'provision-mailbox', 'grant-vpn', 'create-crm-user', 'issue-badge', 'log-provisioning'] as const;
export type ItHop = (typeof IT_HOPS)[number];

const ret = (i: ItOnboardingInput) => i.returnAgent ?? 'IT-Agent';
const usr = (i: ItOnboardingInput) => `usr=${i.username}`;

/** Draft §4.4: BUILD|IT|return:IT-Agent|p:1|aacp:1.1|res:ad_account|filter:usr=j.smith|fields:email,dept,grp,pwd_reset */
export function createAccount(i: ItOnboardingInput): string {
  return emit({
    task: 'BUILD',
    dom: 'IT',
    return: ret(i),
    p: '1',
    res: 'ad_account',
    filter: usr(i),
    fields: i.accountFields ?? ['email', 'dept', 'grp', 'pwd_reset'],
  });
}

function provisionMailbox(i: ItOnboardingInput): string {
  return emit({ task: 'BUILD', dom: 'IT', return: ret(i), p: '1', res: 'mailbox', filter: usr(i), fields: ['licence', 'dl'] });
}

function grantVpn(i: ItOnboardingInput): string {
  return emit({ task: 'BUILD', dom: 'IT', return: ret(i), p: '2', res: 'vpn_access', filter: usr(i), extended: [['req', 'mfa']] });
}

function createCrmUser(i: ItOnboardingInput): string {
  return emit({ task: 'BUILD', dom: 'IT', return: ret(i), p: '2', res: 'crm_user', filter: usr(i), extended: [['req', 'sales_rep']] });
}

function issueBadge(i: ItOnboardingInput): string {
  return emit({
    task: 'BUILD',
    dom: 'IT',
    return: ret(i),
    p: '2',
    res: 'badge_access',
    filter: usr(i),
    extended: [['req', (i.badgeZones ?? ['main_entrance', 'floor_3']).join(',')]],
  });
}

function logProvisioning(i: ItOnboardingInput): string {
  return emit({
    task: 'LOG',
    dom: 'IT',
    return: 'AUD-Agent',
    p: '3',
    filter: usr(i),
    extended: [
      ['actor', ret(i)],
      ['chain', 'AD,MAIL,VPN,CRM,BADGE'],
      ['status', 'ok'],
    ],
  });
}

const ENCODERS: Record<ItHop, (i: ItOnboardingInput) => string> = {
  'create-account': createAccount,
  'provision-mailbox': provisionMailbox,
  'grant-vpn': grantVpn,
  'create-crm-user': createCrmUser,
  'issue-badge': issueBadge,
  'log-provisioning': logProvisioning,
};

export function encodeItOnboarding(input: ItOnboardingInput): EncodedHop[] {
  return IT_HOPS.map((hop) => ({ workflow: 'it-provisioning', hop, packet: ENCODERS[hop](input) }));
}
