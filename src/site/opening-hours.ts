/**
 * site.json's `officeHours`, as an owner writes them ("Mon-Fri 9am-8pm EST", "Monday to Friday,
 * 8:30 a.m. to 5 p.m.; Sat 10am-2pm", "24/7"), read into schema.org's openingHours
 * ("Mo-Fr 09:00-20:00"): what search engines show as the business's hours. Hours that cannot be
 * read with certainty give null, and are left out of the structured data rather than guessed;
 * the contact page shows them as written either way.
 */
export function openingHours(text: string): string[] | null {
  const s = normalise(text);
  if (/^(24\/7|24 hours?( a day)?(,? 7 days( a week)?)?|open 24 hours|always open)$/.test(s))
    return ['Mo-Su 00:00-23:59'];
  const out: string[] = [];
  let pendingDays: string[] = [];
  for (const part of s.split(/\s*[;,]\s*|\s+and\s+(?=[a-z]+\s*\d)/)) {
    if (part === '') continue;
    const group = readGroup(part);
    // "Mon, Wed, Fri 9am-5pm", "Monday to Friday, 9 to 5": days before a comma take the hours
    // that follow.
    if (!group) {
      const days = readDays(part);
      if (!days) return null;
      pendingDays.push(...days);
      continue;
    }
    const days = [...pendingDays, ...group.days];
    if (days.length === 0) return null;
    out.push(`${days.join(',')} ${group.hours}`);
    pendingDays = [];
  }
  return out.length > 0 && pendingDays.length === 0 ? out : null;
}

/** A time zone after the hours (EST, MT, "(Eastern Time)"): schema.org's hours are local. */
const ZONES =
  /\s*\(?\s*(?:\b[ecmpan][sd]?t\b|\b(?:eastern|central|mountain|pacific|atlantic|newfoundland)(?: (?:standard|daylight))?(?: time)?\b)\s*\)?/g;

/** Lower case, one kind of dash and space, "a.m." as "am", the time zone dropped. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2012-\u2015\u2212]/g, '-')
    .replace(/\s+(to|through|thru|until|till)\s+/g, '-')
    .replace(/(?<=[\d\s])([ap])\.?\s?m\.?(?=\s|$|[-,;)])/g, '$1m')
    .replace(/\bnoon\b/g, '12pm')
    .replace(/\bmidnight\b/g, '12am')
    .replace(/\bfrom\b|:$/g, ' ')
    .replace(ZONES, '')
    .replace(/\s*-\s*/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const DAY_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^mo(n(day)?)?$/, 'Mo'],
  [/^tu(e(s(day)?)?)?$/, 'Tu'],
  [/^we(d(nesday)?)?$/, 'We'],
  [/^th(u(r(s(day)?)?)?)?$/, 'Th'],
  [/^fr(i(day)?)?$/, 'Fr'],
  [/^sa(t(urday)?)?$/, 'Sa'],
  [/^su(n(day)?)?$/, 'Su'],
];
const SPANS: Readonly<Record<string, string>> = {
  daily: 'Mo-Su',
  'every day': 'Mo-Su',
  'seven days a week': 'Mo-Su',
  '7 days a week': 'Mo-Su',
  weekdays: 'Mo-Fr',
  weekends: 'Sa-Su',
};

const day = (word: string) => DAY_NAMES.find(([re]) => re.test(word.replace(/\.$/, '')))?.[1];

/** "mon-fri", "mon & wed", "weekdays", "sat": schema.org's days, or null. */
function readDays(text: string): string[] | null {
  const span = SPANS[text];
  if (span) return [span];
  const out: string[] = [];
  for (const piece of text.split(/\s*(?:&|\band\b|\/|\s)\s*/).filter(Boolean)) {
    const [from, to, ...rest] = piece.split('-');
    const a = from === undefined ? undefined : day(from);
    if (!a || rest.length > 0) return null;
    if (to === undefined) out.push(a);
    else {
      const b = day(to);
      if (!b) return null;
      out.push(`${a}-${b}`);
    }
  }
  return out.length > 0 ? out : null;
}

/** "mon-fri 9am-8pm": its days and its hours ("09:00-20:00"), or null. */
function readGroup(text: string): { days: string[]; hours: string } | null {
  const m = /^(.*?)\s*(\d[\d:h.]*\s*(?:am|pm)?)-(\d[\d:h.]*\s*(?:am|pm)?)$/.exec(text);
  if (!m) return null;
  // No days before the hours: those of the part before (see openingHours).
  const days = m[1] ? readDays(m[1]) : [];
  const hours = readHours(m[2] ?? '', m[3] ?? '');
  return days && hours ? { days, hours } : null;
}

/** The hours from `a` to `b`, with their am and pm as people leave them out ("9-5pm", "9-5"). */
function readHours(a: string, b: string): string | null {
  const start = readTime(a);
  const end = readTime(b);
  if (!start || !end) return null;
  let from = start.minutes;
  let to = end.minutes;
  if (end.meridiem && !start.meridiem && !start.clock) {
    from = withMeridiem(from, end.meridiem);
    if (from >= to) from = withMeridiem(start.minutes, 'am');
  } else if (!start.meridiem && !end.meridiem && !start.clock && !end.clock && to <= from)
    to += 12 * 60; // "9-5": nine to five
  if (end.meridiem === 'am' && to === 0) to = 24 * 60; // until midnight
  if (to <= from || to > 24 * 60) return null;
  return `${hhmm(from)}-${hhmm(to === 24 * 60 ? to - 1 : to)}`;
}

interface Time {
  minutes: number;
  meridiem: 'am' | 'pm' | null;
  /** Written as a 24-hour clock (17:00, 17h): no am or pm to guess. */
  clock: boolean;
}

function readTime(text: string): Time | null {
  const m = /^(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const meridiem = (m[3] as Time['meridiem'] | undefined) ?? null;
  if (minute > 59 || (meridiem ? hour < 1 || hour > 12 : hour > 24)) return null;
  const minutes = (meridiem ? withMeridiem(hour * 60, meridiem) : hour * 60) + minute;
  return { minutes, meridiem, clock: !meridiem && (m[2] !== undefined || hour > 12) };
}

/** An hour of a 12-hour clock (12:00 am is midnight, 12:00 pm noon) on the 24-hour clock. */
function withMeridiem(minutes: number, meridiem: 'am' | 'pm'): number {
  const inHour = minutes % 60;
  const hour = Math.floor(minutes / 60) % 12;
  return (meridiem === 'pm' ? hour + 12 : hour) * 60 + inHour;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** What `generate` and `validate` say of office hours they cannot read; nothing when they can. */
export function hoursNotice(officeHours: string): string {
  return openingHours(officeHours)
    ? ''
    : `site.json officeHours "${officeHours}" is shown as written, but search engines are not given the hours (openingHours): write them as Mon-Fri 9am-5pm (or Mon-Fri 9:00-17:00; Sat 10am-2pm) for them to be\n`;
}
