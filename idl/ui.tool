/// Screen and input (HIP-0300 `ui`): click, type, capture the screen,
/// focus windows, and record sessions. Coordinates are in logical pixels
/// from the top-left corner of the chosen display.
category ui;

/// Drive the desktop: pointer, keyboard, screenshots and screen recording.
@open_world
tool ui {
    timing sync
    title "Screen and input"

    /// Click at a point on the screen.
    action click {
        title "Click"
        request {
            /// Horizontal position in logical pixels.
            @range(0, 32767)
            x: i32,
            /// Vertical position in logical pixels.
            @range(0, 32767)
            y: i32,
            /// Which mouse button to press.
            button: MouseButton = left,
            /// Number of clicks: 2 for a double click.
            @range(1, 3)
            clicks: u8 = 1,
            /// Keys held down during the click.
            modifiers: list<KeyModifier> = [],
        }
    }

    /// Type text into the focused window, as if from the keyboard.
    action type {
        title "Type text"
        request {
            /// The text to type.
            @length(1, 10000)
            text: string,
            /// Pause between keystrokes, in milliseconds.
            @range(0, 1000)
            delay_ms: u32 = 0,
        }
    }

    /// Capture the screen, or part of it, as an image.
    action screenshot {
        timing async_short
        title "Screenshot"
        request {
            /// Part of the display to capture; the whole display when omitted.
            region: ScreenRegion?,
            /// Display to capture, counting from 0.
            @range(0, 15)
            display: u32 = 0,
            /// Image encoding.
            format: ImageFormat = png,
            /// Downscale factor applied before encoding.
            @range(0.1, 1.0)
            scale: f32 = 1.0,
        }
        /// A captured image of the screen.
        response Screenshot {
            /// The encoded image.
            image: bytes,
            /// Image encoding.
            format: ImageFormat,
            /// Image width in pixels.
            width: u32,
            /// Image height in pixels.
            height: u32,
        }
    }

    /// Bring a window to the front, found by title or process ID.
    action focus {
        title "Focus window"
        request {
            /// Case-insensitive substring of the window title.
            title: string?,
            /// Process ID owning the window.
            pid: u32?,
        }
        response {
            /// Full title of the focused window.
            title: string,
            /// Process ID owning it.
            pid: u32,
            /// Application name, when known.
            app: string?,
        }
    }

    /// Start recording the screen; stop it with `stop`.
    action record {
        timing async_short
        title "Start recording"
        request {
            /// Part of the display to record; the whole display when omitted.
            region: ScreenRegion?,
            /// Stop automatically after this many seconds; runs until `stop` when omitted.
            @range(1.0, 3600.0)
            duration_seconds: f32?,
            /// Frames per second.
            @range(1, 60)
            fps: u8 = 15,
        }
        response {
            /// ID of the recording, for `stop`.
            recording_id: string,
        }
    }

    /// Stop a recording and store the video in CAS.
    action stop {
        timing async_short
        title "Stop recording"
        request {
            /// Recording to stop; the most recent one when omitted.
            recording_id: string?,
        }
        response Recording
    }

    /// Record for a while, then describe what happened on screen.
    action session {
        timing async_long
        title "Record and analyze"
        request {
            /// How long to record, in seconds.
            @range(1.0, 600.0)
            duration_seconds: f32,
            /// Part of the display to record; the whole display when omitted.
            region: ScreenRegion?,
            /// What to look for, e.g. `did the dialog close after saving?`.
            @length(1, 2000)
            prompt: string?,
        }
        response {
            /// The stored recording.
            recording: Recording,
            /// Prose description of what happened.
            summary: string,
            /// Notable moments, in order.
            observations: list<string>,
        }
    }

    errors UiError
}

/// A rectangle of the display in logical pixels.
struct ScreenRegion {
    /// Left edge.
    @range(0, 32767)
    x: i32,
    /// Top edge.
    @range(0, 32767)
    y: i32,
    /// Width.
    @range(1, 32767)
    width: u32,
    /// Height.
    @range(1, 32767)
    height: u32,
}

/// A finished screen recording.
struct Recording {
    /// Recording ID.
    recording_id: string,
    /// CAS hash of the video (WebM).
    video_hash: string,
    /// Length in seconds.
    duration_seconds: f64,
    /// Number of frames captured.
    frames: u32,
}

/// Mouse buttons.
enum MouseButton {
    /// Primary button.
    left,
    /// Secondary (context-menu) button.
    right,
    /// Wheel button.
    middle,
}

/// Modifier keys.
enum KeyModifier {
    /// Shift.
    shift,
    /// Control.
    ctrl,
    /// Alt, or Option on macOS.
    alt,
    /// Super: Windows key, or Command on macOS.
    meta,
    /// Command on macOS.
    @deprecated("use meta, which maps to Command on macOS and the Windows key elsewhere")
    cmd,
}

/// Image encodings for screenshots.
enum ImageFormat {
    /// Lossless PNG.
    png,
    /// Lossy JPEG.
    jpeg,
    /// WebP (lossy).
    webp,
}

/// Errors from screen and input actions.
error UiError {
    /// No display is available (headless server).
    no_display,
    /// The OS has not granted the needed permission (accessibility or screen recording).
    permission_denied {
        /// The missing permission, e.g. `screen_recording`.
        capability: string,
    },
    /// No window matches the title or process ID.
    window_not_found,
    /// The point lies outside every display.
    out_of_bounds {
        /// Horizontal position that was given.
        x: i32,
        /// Vertical position that was given.
        y: i32,
    },
    /// A recording is already running.
    already_recording {
        /// The running recording.
        recording_id: string,
    },
    /// `stop` was called with no recording running.
    not_recording,
}
