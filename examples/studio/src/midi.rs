//! A deterministic stand-in for a MIDI model: a seeded pentatonic melody,
//! one bar at a time, written out as a Standard MIDI File.

/// Ticks per quarter note in the files written.
const TICKS: u16 = 96;

/// A melody being "generated".
#[derive(Debug)]
pub struct Song {
    state: u64,
    track: Vec<u8>,
}

impl Song {
    /// A new melody from a seed.
    pub fn new(seed: u64) -> Song {
        Song {
            state: seed | 1,
            track: Vec::new(),
        }
    }

    /// The next bar (four quarter notes) as MIDI track events; also kept
    /// for the final file.
    pub fn next_bar(&mut self) -> Vec<u8> {
        const SCALE: [u8; 5] = [60, 62, 64, 67, 69];
        let mut bar = Vec::with_capacity(4 * 8);
        for _ in 0..4 {
            // xorshift64: cheap, deterministic, good enough for a melody.
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            let note = SCALE[(self.state % 5) as usize];
            // Note on at delta 0, note off a quarter note later.
            bar.extend_from_slice(&[0x00, 0x90, note, 0x60]);
            bar.extend_from_slice(&[0x60, 0x80, note, 0x40]);
        }
        self.track.extend_from_slice(&bar);
        bar
    }

    /// The whole melody as a format-0 Standard MIDI File.
    pub fn into_smf(self) -> Vec<u8> {
        let mut track = self.track;
        track.extend_from_slice(&[0x00, 0xff, 0x2f, 0x00]); // end of track
        let mut file = Vec::with_capacity(22 + track.len());
        file.extend_from_slice(b"MThd");
        file.extend_from_slice(&6u32.to_be_bytes());
        file.extend_from_slice(&0u16.to_be_bytes()); // format 0
        file.extend_from_slice(&1u16.to_be_bytes()); // one track
        file.extend_from_slice(&TICKS.to_be_bytes());
        file.extend_from_slice(b"MTrk");
        // A track is a few hundred bytes here, far below u32::MAX.
        file.extend_from_slice(&u32::try_from(track.len()).unwrap_or(u32::MAX).to_be_bytes());
        file.extend_from_slice(&track);
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_song() {
        let mut a = Song::new(3);
        let mut b = Song::new(3);
        assert_eq!(a.next_bar(), b.next_bar());
        let file = a.into_smf();
        assert_eq!(&file[..4], b"MThd");
        assert_eq!(&file[14..18], b"MTrk");
        assert_eq!(&file[file.len() - 3..], &[0xff, 0x2f, 0x00]);
    }
}
