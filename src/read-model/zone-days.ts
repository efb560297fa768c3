/**
 * Calendar days in a time zone as instants: where a day starts in America/Sao_Paulo, say, whatever the
 * machine's zone. Uses the runtime's IANA database (Intl); no offset is assumed, so a zone's change of
 * rules (Brazil dropped daylight saving in 2019) is the database's business.
 */

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((candidate) => candidate.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Midnight UTC of a calendar day; setUTCFullYear, since Date.UTC takes the years 0 to 99 for 1900 to 1999. */
function utcMidnight(date: string, plusDays = 0): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(2000, 0, 1));
  at.setUTCFullYear(year, month - 1, day + plusDays);
  return at.getTime();
}

/** The instant the day `date` (YYYY-MM-DD) begins in `zone`. */
export function startOfDay(date: string, zone: string): Date {
  const midnightAsUtc = utcMidnight(date);
  // Twice: the offset at the guess may differ from the one at the answer across a change of offset.
  const guess = midnightAsUtc - offsetAt(midnightAsUtc, zone);
  return new Date(midnightAsUtc - offsetAt(guess, zone));
}

/** The day after `date` (YYYY-MM-DD), on the calendar. */
export function nextDay(date: string): string {
  const next = new Date(utcMidnight(date, 1));
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${String(next.getUTCFullYear()).padStart(4, '0')}-${two(next.getUTCMonth() + 1)}-${two(next.getUTCDate())}`;
}
