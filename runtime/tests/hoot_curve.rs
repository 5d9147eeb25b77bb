//! HOOT01 with CURVE: a client whose key the server allows calls as over
//! plain text, its IOPub subscription included; a client with a key the
//! server does not allow, one speaking plain text, and one given the
//! wrong server key get nothing (the backend never joins the rotation,
//! calls are `UNAVAILABLE` at once, saying why) and the server counts each
//! refusal; CURVE is refused where it cannot work. Key files are read in
//! each documented form, and a bad one names its path and its fault.
#![cfg(feature = "hoot")]

mod support;

use std::path::Path;
use std::time::Duration;

use support::*;
use toolwright::hoot::{
    self, BackendState, Client, ClientConfig, HootError, KeyFileError, KeyPair, Message, PublicKey,
    RequestId, Server, ServerConfig, ServerHandle,
};
use toolwright::jobs::{JobEvent, JobState};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{DispatcherConfig, ResponseEnvelope, codes};

type Hoot = Client<ToolCatalogue>;

/// How long a refused client is given to get in anyway.
const REFUSED_FOR: Duration = Duration::from_millis(1500);

fn keys() -> KeyPair {
    KeyPair::generate().expect("libzmq has CURVE")
}

fn config() -> ClientConfig {
    ClientConfig::default()
        .heartbeat(Duration::from_millis(50), Duration::from_secs(3600))
        .timeout(Duration::from_secs(10))
}

/// A CURVE server with `keys` letting in `allowed`, with IOPub.
fn serve(keys: &KeyPair, allowed: &[PublicKey]) -> ServerHandle {
    let config = ServerConfig::new("tcp://127.0.0.1:0")
        .iopub("tcp://127.0.0.1:0")
        .curve(keys.clone(), allowed.iter().copied());
    Server::serve(dispatcher(DispatcherConfig::default()), config).expect("the server binds")
}

async fn add(client: &Hoot) -> Envelope {
    let request = ToolRequest::Add(MathOperands { a: 40, b: 2 });
    client.call(encode(&request), CallOptions::default()).await
}

/// Waits until `done` holds of the server's counts.
async fn counted(server: &ServerHandle, what: &str, done: impl Fn(&hoot::ServerStats) -> bool) {
    let waited = tokio::time::timeout(SOON, async {
        while !done(&server.stats()) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "{what}: {:?}", server.stats());
}

/// A client that the server never lets in: not ready, its calls
/// `UNAVAILABLE` at once with a message containing `why`, its backend
/// shown as a failed handshake.
async fn shut_out(client: &Hoot, why: &str) {
    assert!(!client.ready(REFUSED_FOR).await, "{:?}", client.backends());
    let started = tokio::time::Instant::now();
    let answer = add(client).await;
    assert!(started.elapsed() < Duration::from_secs(1), "not at once");
    let e = error(&answer);
    assert_eq!(e.code, codes::UNAVAILABLE);
    assert!(
        e.message
            .starts_with("no backend completed a CURVE handshake with this client (tcp://"),
        "{}",
        e.message
    );
    assert!(e.message.contains(why), "{}", e.message);
    let states: Vec<BackendState> = client.backends().into_iter().map(|b| b.state).collect();
    assert!(
        matches!(states.as_slice(), [BackendState::HandshakeFailed(reason)] if reason.contains(why)),
        "{states:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_client_calls_and_subscribes_as_over_plain_text() {
    let (server_keys, client_keys) = (keys(), keys());
    let server = serve(&server_keys, &[keys().public(), client_keys.public()]);
    let iopub = server.iopub_endpoint().expect("IOPub").to_owned();
    let client = Hoot::connect(
        &[server.endpoint()],
        config()
            .iopub(iopub)
            .curve(client_keys, server_keys.public()),
    )
    .expect("connect");
    assert!(client.ready(SOON).await, "{:?}", client.backends());
    assert_eq!(
        add(&client).await,
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 42 }))
    );
    let mut events = client.subscribe();
    // A SUB receives only what is published after it has joined.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let launch = ToolRequest::Launch(LaunchRequest { fail: false });
    let job = started(&decode(
        &client
            .call_bytes(encode(&launch), CallOptions::default())
            .await
            .expect("an answer"),
    ));
    let finished = tokio::time::timeout(SOON, async {
        loop {
            if let Ok(JobEvent::Finished { job_id, state, .. }) = events.recv().await
                && job_id == job
            {
                return state;
            }
        }
    })
    .await
    .expect("the job's end is published to an allowed subscriber");
    assert_eq!(finished, JobState::Complete);
    let stats = server.stats();
    assert_eq!(
        (stats.calls, stats.auth_refused, stats.handshake_failed),
        (2, 0, 0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_key_not_allowed_gets_nothing_and_is_counted() {
    let server_keys = keys();
    let server = serve(&server_keys, &[keys().public()]);
    let iopub = server.iopub_endpoint().expect("IOPub").to_owned();
    let client = Hoot::connect(
        &[server.endpoint()],
        config().iopub(iopub).curve(keys(), server_keys.public()),
    )
    .expect("connect");
    shut_out(&client, "it refused this client's key (ZAP status 400)").await;
    // Its DEALER and its SUB both tried, and were both refused.
    counted(&server, "both handshakes refused", |s| s.auth_refused >= 2).await;
    assert_eq!(server.stats().calls, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_given_the_wrong_server_key_gets_nothing() {
    let client_keys = keys();
    let server = serve(&keys(), &[client_keys.public()]);
    let client = Hoot::connect(
        &[server.endpoint()],
        config().curve(client_keys, keys().public()),
    )
    .expect("connect");
    shut_out(&client, "is its public key the one this client was given?").await;
    counted(&server, "the handshake failed", |s| s.handshake_failed >= 1).await;
    assert_eq!((server.stats().calls, server.stats().auth_refused), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_text_peer_gets_no_reply() {
    let server = serve(&keys(), &[keys().public()]);
    let context = zmq::Context::new();
    let dealer = context.socket(zmq::DEALER).expect("a socket");
    dealer.set_linger(0).expect("linger");
    dealer.connect(server.endpoint()).expect("connect");
    let body = hoot::encode_call(
        &encode(&ToolRequest::Add(MathOperands { a: 1, b: 2 })),
        None,
        false,
    );
    dealer
        .send_multipart(hoot::encode(Message::heartbeat(RequestId::new())), 0)
        .expect("queued");
    dealer
        .send_multipart(
            hoot::encode(Message::request(RequestId::new(), "", body)),
            0,
        )
        .expect("queued");
    let mut items = [dealer.as_poll_item(zmq::POLLIN)];
    let ready = zmq::poll(&mut items, REFUSED_FOR.as_millis() as i64).expect("poll");
    assert_eq!(ready, 0, "a plain-text peer was answered");
    counted(&server, "the handshake failed", |s| s.handshake_failed >= 1).await;
    assert_eq!(server.stats().calls, 0);

    // The runtime's own client, speaking plain text, is answered `UNAVAILABLE`.
    let client = Hoot::connect(&[server.endpoint()], config()).expect("connect");
    assert!(!client.ready(REFUSED_FOR).await);
    assert_eq!(error(&add(&client).await).code, codes::UNAVAILABLE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn curve_is_refused_where_it_cannot_secure_anything() {
    let d = dispatcher(DispatcherConfig::default());
    let on_inproc = ServerConfig::new("inproc://curve-test").curve(keys(), [keys().public()]);
    assert!(matches!(
        Server::serve(d.clone(), on_inproc),
        Err(HootError::CurveInproc(endpoint)) if endpoint == "inproc://curve-test"
    ));
    let iopub_on_inproc = ServerConfig::new("tcp://127.0.0.1:0")
        .iopub("inproc://curve-iopub")
        .curve(keys(), [keys().public()]);
    assert!(matches!(
        Server::serve(d, iopub_on_inproc),
        Err(HootError::CurveInproc(_))
    ));
    let client = Hoot::connect(
        &["inproc://curve-test"],
        config().curve(keys(), keys().public()),
    );
    assert!(matches!(client, Err(HootError::CurveInproc(_))));
    assert_eq!(
        HootError::CurveUnavailable.to_string(),
        "CURVE was asked for, but this libzmq was built without it (zmq::has(\"curve\") is \
         false); build libzmq with libsodium (docs/hoot.md, \"Security: CURVE\")"
    );
}

#[test]
fn a_saved_key_pair_loads_back_and_its_secret_stays_private() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("gateway");
    let pair = keys();
    let public_path = pair.save(&path).expect("saved");
    assert_eq!(public_path, dir.path().join("gateway.pub"));

    let loaded = KeyPair::load(&path).expect("the secret certificate loads");
    assert_eq!(loaded.public(), pair.public());
    assert_eq!(PublicKey::load(&public_path).expect("loads"), pair.public());
    assert_eq!(PublicKey::load(&path).expect("loads"), pair.public());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).expect("there").permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&public_path), 0o644);
    }
    let secret = std::fs::read_to_string(&path).expect("readable");
    let secret_z85 = secret
        .lines()
        .find_map(|l| l.trim().strip_prefix("secret-key = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("a ZPL secret-key line");
    let shown = format!("{loaded:?}");
    assert!(shown.contains(&pair.public().to_z85()), "{shown}");
    assert!(
        !shown.contains(secret_z85),
        "Debug shows the secret: {shown}"
    );
    // Keys are not overwritten.
    let again = pair.save(&path).expect_err("exists");
    assert!(matches!(&again, KeyFileError::Write { path: p, .. } if *p == path));
}

#[test]
fn key_files_of_curve_keygen_pyzmq_and_a_bare_key_load() {
    let dir = tempfile::tempdir().expect("a directory");
    let public = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    let secret = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";
    let keygen = dir.path().join("keygen.txt");
    std::fs::write(
        &keygen,
        format!(
            "This tool generates a CurveZMQ keypair, as two printable strings you can\n\n\
             == CURVE PUBLIC KEY ==\n{public}\n\n== CURVE SECRET KEY ==\n{secret}\n"
        ),
    )
    .expect("written");
    let pair = KeyPair::load(&keygen).expect("curve_keygen's output loads");
    assert_eq!(pair.public().to_z85(), public);

    // An allow-list directory: pyzmq's `*.key`, this runtime's `*.pub`, a
    // bare key; the secret files and anything else are not read.
    let allow = dir.path().join("allow");
    std::fs::create_dir(&allow).expect("made");
    std::fs::write(
        allow.join("client.key"),
        format!(
            "#   ****  Generated on 2024-05-01 by pyzmq  ****\n\
             metadata\ncurve\n    public-key = \"{public}\"\n"
        ),
    )
    .expect("written");
    std::fs::write(
        allow.join("client.key_secret"),
        "curve\n    secret-key = \"broken\"\n",
    )
    .expect("written");
    std::fs::write(allow.join("README"), "not a key\n").expect("written");
    let other = keys();
    other.save(allow.join("gateway")).expect("saved");
    let bare = keys().public();
    std::fs::write(allow.join("bare.pub"), format!("{bare}\n")).expect("written");
    let allowed = PublicKey::load_all(&allow).expect("the directory loads");
    let mut expected = vec![pair.public(), bare, other.public()];
    // In the order of their names: bare.pub, client.key, gateway.pub.
    expected.swap(0, 1);
    assert_eq!(allowed, expected);
    assert_eq!(
        PublicKey::load_all(allow.join("bare.pub")).expect("a file"),
        [bare]
    );
}

#[test]
fn a_bad_key_file_says_which_and_what_is_wrong() {
    let dir = tempfile::tempdir().expect("a directory");
    let show = |e: KeyFileError| {
        e.to_string()
            .replace(&dir.path().display().to_string(), "DIR")
    };

    let missing = KeyPair::load(dir.path().join("nope")).expect_err("no file");
    assert!(matches!(missing, KeyFileError::Read { .. }));
    assert!(
        show(missing).starts_with("cannot read the key file `DIR/nope`: "),
        "read error"
    );

    let public_only = dir.path().join("server.pub");
    keys().save(dir.path().join("server")).expect("saved");
    assert_eq!(
        show(KeyPair::load(&public_only).expect_err("no secret")),
        "`DIR/server.pub` holds no CURVE secret key: give the secret certificate \
         (`secret-key = \"…\"` beside `public-key`), not the public one, or \
         `curve_keygen`'s output"
    );

    let short = dir.path().join("short.pub");
    std::fs::write(
        &short,
        "metadata\ncurve\n    public-key = \"rq:rM>}U?@Lns47E1\"\n",
    )
    .expect("written");
    assert_eq!(
        show(PublicKey::load(&short).expect_err("not a key")),
        "`DIR/short.pub`, line 3: the public key is not valid: a CURVE key is 40 characters \
         of Z85; this has 17"
    );

    let prose = dir.path().join("prose.pub");
    std::fs::write(&prose, "just some words\nand more\n").expect("written");
    assert_eq!(
        show(PublicKey::load(&prose).expect_err("no key")),
        "`DIR/prose.pub` holds no CURVE public key: give a certificate \
         (`public-key = \"…\"`), `curve_keygen`'s output, or a file of one Z85 key"
    );

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("made");
    std::fs::write(empty.join("notes.txt"), "nothing").expect("written");
    assert_eq!(
        show(PublicKey::load_all(&empty).expect_err("no keys")),
        "the directory `DIR/empty` holds no public key files (`*.pub` or `*.key`)"
    );
    // One bad file in a directory fails the whole allow-list, naming it.
    std::fs::copy(&short, empty.join("short.pub")).expect("copied");
    let e = PublicKey::load_all(&empty).expect_err("a bad key");
    assert_eq!(e.path(), empty.join("short.pub"));

    assert_eq!(
        PublicKey::from_z85("HelloWorld")
            .expect_err("short")
            .to_string(),
        "a CURVE key is 40 characters of Z85; this has 10"
    );
}
