package io.fleetscope.console;

import io.fleetscope.schemas.contract.Runbooks;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * The runbooks (docs/runbooks.md, copied into the jar at build time) as an HTML page at the path
 * the correlator's default {@code runbook_url} names ({@value Runbooks#BASE}#alertname), each
 * alert's section anchored by its name in lower case. Rendered once, with raw HTML escaped.
 */
final class RunbookPage {
  static final String PATH = "/" + Runbooks.BASE;
  private static final String RESOURCE = "/console/docs/runbooks.md";

  private RunbookPage() {}

  static byte[] html() throws IOException {
    String md;
    try (InputStream in = RunbookPage.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IOException("runbooks missing from the jar: " + RESOURCE);
      }
      md = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return render(md).getBytes(StandardCharsets.UTF_8);
  }

  static String render(String markdown) {
    List<Extension> ext = List.of(HeadingAnchorExtension.create());
    String body = HtmlRenderer.builder().extensions(ext).escapeHtml(true).build()
        .render(Parser.builder().extensions(ext).build().parse(markdown));
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>FleetScope runbooks</title>"
        + "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:20px auto;padding:0 16px;color:#1d2330}"
        + "h2{border-top:1px solid #dde1ea;padding-top:14px}code{background:#f0f2f6;padding:1px 4px}"
        + ":target{background:#fff6d6}</style></head><body><p><a href=\"/\">FleetScope console</a></p>" + body + "</body></html>";
  }
}
