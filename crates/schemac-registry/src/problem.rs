//! Every error the registry answers with: an RFC 9457 problem (`application/problem+json`),
//! or, for a browser on the page routes, the same problem as an HTML page whose every value is
//! escaped.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::page;

/// An error response: status, a one-line title and detail, and members a client can read
/// (`reference`, `known_references`, ...).
#[derive(Clone, Debug)]
pub struct Problem {
    pub status: StatusCode,
    pub detail: String,
    /// The request path as received (still percent-encoded), so ASCII only.
    pub instance: Option<String>,
    /// More members: what was asked for and what exists.
    pub members: Map<String, Value>,
    /// Headers the status calls for (`Allow` on a 405).
    allow: Option<&'static str>,
}

#[derive(Serialize)]
struct Body<'a> {
    r#type: &'static str,
    title: &'a str,
    status: u16,
    detail: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance: Option<&'a str>,
    #[serde(flatten)]
    members: &'a Map<String, Value>,
}

impl Problem {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Problem {
        Problem { status, detail: detail.into(), instance: None, members: Map::new(), allow: None }
    }

    pub fn with(mut self, member: &str, value: impl Into<Value>) -> Problem {
        self.members.insert(member.to_owned(), value.into());
        self
    }

    pub fn at(mut self, path: &str) -> Problem {
        self.instance = Some(path.to_owned());
        self
    }

    /// `405`, naming the methods the route has.
    pub fn method_not_allowed(method: &str, allow: &'static str) -> Problem {
        let mut problem =
            Problem::new(StatusCode::METHOD_NOT_ALLOWED, format!("{method} is not allowed here; the registry is read-only ({allow})"));
        problem.allow = Some(allow);
        problem
    }

    fn title(&self) -> &'static str {
        self.status.canonical_reason().unwrap_or("Error")
    }

    /// The problem as `application/problem+json`.
    pub fn json(&self) -> String {
        let body = Body {
            r#type: "about:blank",
            title: self.title(),
            status: self.status.as_u16(),
            detail: &self.detail,
            instance: self.instance.as_deref(),
            members: &self.members,
        };
        serde_json::to_string_pretty(&body).unwrap_or_default() + "\n"
    }

    /// The problem as an HTML page: the title, the detail and each member, all escaped.
    pub fn html(&self) -> String {
        let mut rows = String::new();
        for (name, value) in &self.members {
            let value = match value {
                Value::String(text) => text.clone(),
                Value::Array(items) => {
                    items.iter().map(|item| item.as_str().map_or_else(|| item.to_string(), str::to_owned)).collect::<Vec<_>>().join(", ")
                }
                other => other.to_string(),
            };
            rows.push_str(&format!("<tr><th>{}</th><td>{}</td></tr>\n", page::escape(name), page::escape(&value)));
        }
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{status} {title}</title>\n</head>\n<body>\n\
             <h1>{status} {title}</h1>\n<p>{detail}</p>\n<table>\n{rows}</table>\n<p><a href=\"/json-schemas\">Every schema</a></p>\n</body>\n</html>\n",
            status = self.status.as_u16(),
            title = page::escape(self.title()),
            detail = page::escape(&self.detail),
        )
    }

    /// As HTML for a client that asked for it, else as JSON.
    pub fn respond(self, html: bool) -> Response {
        let (content_type, body) = if html { ("text/html; charset=utf-8", self.html()) } else { ("application/problem+json", self.json()) };
        let mut response = (self.status, [(header::CONTENT_TYPE, content_type)], body).into_response();
        if let Some(allow) = self.allow {
            response.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        if html {
            response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(page::CONTENT_SECURITY_POLICY));
        }
        response
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        self.respond(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_members_and_html_escaping() {
        let problem = Problem::new(StatusCode::NOT_FOUND, "no schema is registered as \"<script>\"")
            .at("/api/v1/json-schemas/%3Cscript%3E")
            .with("reference", "<script>alert(1)</script>")
            .with("known_references", vec!["a/b", "c"]);
        let json: Value = serde_json::from_str(&problem.json()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "type": "about:blank",
                "title": "Not Found",
                "status": 404,
                "detail": "no schema is registered as \"<script>\"",
                "instance": "/api/v1/json-schemas/%3Cscript%3E",
                "reference": "<script>alert(1)</script>",
                "known_references": ["a/b", "c"],
            })
        );
        let html = problem.html();
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"), "{html}");
        assert!(html.contains("<p>no schema is registered as &quot;&lt;script&gt;&quot;</p>"), "{html}");
        assert!(html.contains("<td>a/b, c</td>"), "{html}");
    }
}
