//! A `kifconv serve` process, started as a user starts it, and a plain
//! HTTP/1.1 client over a TCP socket to talk to it (no client library: the
//! requests are written byte for byte, so malformed ones can be too).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;

/// A running server, ended (SIGKILL) when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
    /// The address it listens on, from the URL it printed.
    pub addr: SocketAddr,
    /// The page's URL, as printed (`http://127.0.0.1:PORT/`).
    pub url: String,
}

impl Server {
    /// Starts `kifconv serve ARGS` and waits for the URL it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = super::bin::command()
            .arg("serve")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout).read_line(&mut line).unwrap();
        if line.is_empty() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            panic!("kifconv serve {args:?} printed no URL: {err}");
        }
        // The server's standard error is drained, so that a server that
        // says much never blocks on a full pipe.
        let mut stderr = child.stderr.take().expect("piped");
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let url = line
            .trim()
            .strip_prefix("kifconv serve: ")
            .unwrap_or_else(|| panic!("{line:?}"))
            .to_string();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        Server { child, addr, url }
    }

    /// `GET path`, answered.
    pub fn get(&self, path: &str) -> Response {
        self.request(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    /// `POST path` with `body`, answered.
    pub fn post(&self, path: &str, body: &[u8]) -> Response {
        let mut request = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.request(&request)
    }

    /// Sends `request` as it is and reads the answer to the end.
    pub fn request(&self, request: &[u8]) -> Response {
        let mut stream = self.connect();
        stream.write_all(request).unwrap();
        read_response(&mut stream)
    }

    /// A connection to the server, with a read deadline.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer: status, headers (names in lower case), body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads an answer to a request sent with `Connection: close`: the server
/// closes after it, so the body is what follows the headers (chunked
/// bodies are joined).
pub fn read_response(stream: &mut TcpStream) -> Response {
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    parse_response(&bytes)
}

/// An answer from its bytes.
pub fn parse_response(bytes: &[u8]) -> Response {
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(bytes)));
    let head = std::str::from_utf8(&bytes[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = bytes[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = unchunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

/// A chunked body joined.
fn unchunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = std::str::from_utf8(&rest[..line_end]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return body;
        }
        rest = &rest[line_end + 2..];
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

/// `text` percent-encoded for a query parameter.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
