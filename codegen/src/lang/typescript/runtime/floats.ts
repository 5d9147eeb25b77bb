// Floats written as Rust's serde_json writes them, so JSON text is the same
// byte for byte in every implementation: the shortest digits that read back
// as the same value, `.0` on whole numbers, fixed notation for decimal
// exponents in -5..=15 (f64) or -6..=12 (f32), else `1.5e+20` / `1e-7`.

/** The JSON text of an `f64` value. */
export function formatF64(value: number): string {
  return format(shortestF64(value), -5, 15);
}

/**
 * The shortest decimal that reads back as the same `f32` as `value`, as a
 * number: `0.95` for the float 32 nearest 0.95 (0.949999988079071…), so a
 * value read from MsgPack equals the same value read from JSON.
 */
export function shortestF32Number(value: number): number {
  return Number(formatF32(value));
}

/** The JSON text of an `f32` value (rounded to `f32` first). */
export function formatF32(value: number): string {
  return format(shortestF32(Math.fround(value)), -6, 12);
}

/** Sign, significant digits and the decimal exponent of the first digit. */
interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

function shortestF64(value: number): Decimal {
  return withSign(parseExponential(value.toExponential()), value);
}

// `toExponential` drops the sign of −0; Rust writes `-0.0`.
function withSign(d: Decimal, value: number): Decimal {
  return { ...d, negative: value < 0 || Object.is(value, -0) };
}

function shortestF32(value: number): Decimal {
  if (value === 0) return withSign(parseExponential("0e+0"), value);
  // The shortest precision whose rounding reads back as the same f32; at
  // each precision `toExponential` rounds correctly, so the first one that
  // round-trips is also the closest such decimal.
  for (let digits = 1; digits < 9; digits++) {
    const text = value.toExponential(digits - 1);
    if (Math.fround(Number(text)) === value) return parseExponential(text);
  }
  return parseExponential(value.toExponential(8));
}

function parseExponential(text: string): Decimal {
  const negative = text.startsWith("-");
  const body = negative ? text.slice(1) : text;
  const e = body.indexOf("e");
  const mantissa = body.slice(0, e);
  let digits = mantissa.replace(".", "");
  // Trailing zeros carry no information (`toExponential(3)` may add them).
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  digits = digits.slice(0, end);
  return { negative, digits, exponent: Number(body.slice(e + 1)) };
}

function format(d: Decimal, minFixed: number, maxFixed: number): string {
  const sign = d.negative ? "-" : "";
  const { digits, exponent } = d;
  if (digits === "0") return `${sign}0.0`;
  if (exponent >= minFixed && exponent <= maxFixed) {
    if (digits.length - 1 <= exponent) {
      return `${sign}${digits}${"0".repeat(exponent - digits.length + 1)}.0`;
    }
    if (exponent >= 0) {
      return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
    }
    return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}
