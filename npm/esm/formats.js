// The project's `format: date-time` rule, the same as chatschema.schemas.is_date_time in Python:
// RFC 3339 section 5.6 with ASCII digits, `T`/`Z` in either case, a mandatory offset, a real
// calendar day and no leap second. ajv-formats' own date-time also takes a space separator and
// offsets without minutes, which the Python side rejects, so the package replaces it with this.
const DATE_TIME =
  /^([0-9]{4})-(0[1-9]|1[0-2])-([0-9]{2})[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$/;

function daysInMonth(year, month) {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function isDateTime(value) {
  if (typeof value !== "string") return true;
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return year >= 1 && day >= 1 && day <= daysInMonth(year, month);
}

/** The formats the precompiled validators use (ajv's standalone code looks them up by name). */
export const formats = { "date-time": { type: "string", validate: isDateTime } };
