//! Z85 (ZeroMQ RFC 32), the printable form of CURVE keys: 32 bytes are 40
//! characters. Written here rather than taken from the `zmq` crate, whose
//! decoder accepts characters outside the alphabet without a word.

/// The 85 characters, in value order.
const ALPHABET: &[u8; 85] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/// The Z85 text of a key.
pub(super) fn encode(key: &[u8; 32]) -> String {
    let mut text = String::with_capacity(40);
    for chunk in key.chunks_exact(4) {
        let mut value = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let mut group = [0u8; 5];
        for slot in group.iter_mut().rev() {
            *slot = ALPHABET[(value % 85) as usize];
            value /= 85;
        }
        text.extend(group.iter().map(|&b| char::from(b)));
    }
    text
}

/// The key whose Z85 text is `text`, or what is wrong with it.
pub(super) fn decode(text: &str) -> Result<[u8; 32], String> {
    if text.len() != 40 {
        return Err(format!(
            "a CURVE key is 40 characters of Z85; this has {}",
            text.chars().count()
        ));
    }
    let mut key = [0u8; 32];
    for (group, out) in text.as_bytes().chunks_exact(5).zip(key.chunks_exact_mut(4)) {
        let mut value: u64 = 0;
        for &c in group {
            let digit = ALPHABET.iter().position(|&a| a == c).ok_or_else(|| {
                format!("`{}` is not a Z85 character", char::from(c).escape_debug())
            })?;
            value = value * 85 + digit as u64;
        }
        let value = u32::try_from(value)
            .map_err(|_| format!("`{}` is not Z85 of 4 bytes", String::from_utf8_lossy(group)))?;
        out.copy_from_slice(&value.to_be_bytes());
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_32s_example_round_trips() {
        // RFC 32: 86 4F D2 6F B5 59 F7 5B is "HelloWorld".
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&[0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]);
        let text = encode(&key);
        assert!(text.starts_with("HelloWorld"), "{text}");
        assert_eq!(decode(&text), Ok(key));
        let all = [0xffu8; 32];
        assert_eq!(decode(&encode(&all)), Ok(all));
    }

    #[test]
    fn text_that_is_no_key_is_refused() {
        assert_eq!(
            decode("HelloWorld").unwrap_err(),
            "a CURVE key is 40 characters of Z85; this has 10"
        );
        let bad = format!("{}\"", "0".repeat(39));
        assert_eq!(decode(&bad).unwrap_err(), "`\\\"` is not a Z85 character");
        // Five `#` (84 each) is past 2^32.
        let over = format!("#####{}", "0".repeat(35));
        assert_eq!(decode(&over).unwrap_err(), "`#####` is not Z85 of 4 bytes");
    }
}
