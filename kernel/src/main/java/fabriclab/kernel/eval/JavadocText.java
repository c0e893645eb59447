package fabriclab.kernel.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Javadoc comment as JShell hands it over (its HTML, inline tags such as {@code {@link ...}} and block
 * tags such as {@code @param}) turned into Markdown for a reader, or into plain text: paragraphs
 * unwrapped, lists as lists, code as code, links as their label, entities as characters, the block tags as
 * a list of parameters, the return value and the exceptions. No raw tag is left.
 */
final class JavadocText {
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(\\w+)\\s*((?:[^{}]|\\{[^{}]*\\})*)}");
    private static final Pattern HTML_TAG = Pattern.compile("<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>");
    private static final Pattern HREF = Pattern.compile("<a\\s[^>]*>(.*?)</a>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ENTITY = Pattern.compile("&(#x?[0-9a-fA-F]+|[a-zA-Z]+);");
    private static final Pattern BLOCK_TAG = Pattern.compile("(?m)^\\s*@(\\w+)\\s*");
    private static final Map<String, String> ENTITIES = Map.ofEntries(
            Map.entry("lt", "<"), Map.entry("gt", ">"), Map.entry("amp", "&"), Map.entry("quot", "\""),
            Map.entry("apos", "'"), Map.entry("nbsp", "\u00a0"), Map.entry("ge", "\u2265"), Map.entry("le", "\u2264"),
            Map.entry("ne", "\u2260"), Map.entry("times", "\u00d7"), Map.entry("minus", "\u2212"), Map.entry("plusmn", "\u00b1"),
            Map.entry("mdash", "\u2014"), Map.entry("ndash", "\u2013"), Map.entry("hellip", "\u2026"), Map.entry("micro", "\u00b5"),
            Map.entry("deg", "\u00b0"), Map.entry("middot", "\u00b7"), Map.entry("rarr", "\u2192"), Map.entry("larr", "\u2190"),
            Map.entry("infin", "\u221e"), Map.entry("asymp", "\u2248"), Map.entry("sup2", "\u00b2"), Map.entry("alpha", "\u03b1"),
            Map.entry("beta", "\u03b2"), Map.entry("lambda", "\u03bb"), Map.entry("mu", "\u03bc"), Map.entry("rho", "\u03c1"),
            Map.entry("sigma", "\u03c3"), Map.entry("tau", "\u03c4"), Map.entry("Delta", "\u0394"), Map.entry("sum", "\u2211"));

    private JavadocText() {
    }

    /** The comment as Markdown. */
    static String markdown(String javadoc) {
        return render(javadoc, true);
    }

    /** The comment as plain text (the same layout, without Markdown's marks). */
    static String plain(String javadoc) {
        return render(javadoc, false);
    }

    private static String render(String javadoc, boolean md) {
        if (javadoc == null || javadoc.isBlank()) {
            return "";
        }
        Matcher m = BLOCK_TAG.matcher(javadoc);
        int bodyEnd = m.find() ? m.start() : javadoc.length();
        StringBuilder out = new StringBuilder(body(javadoc.substring(0, bodyEnd), md));
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        if (bodyEnd < javadoc.length()) {
            m = BLOCK_TAG.matcher(javadoc);
            List<int[]> starts = new ArrayList<>();
            List<String> names = new ArrayList<>();
            while (m.find()) {
                starts.add(new int[] {m.start(), m.end()});
                names.add(m.group(1));
            }
            for (int i = 0; i < starts.size(); i++) {
                int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : javadoc.length();
                String text = entities(HTML_TAG.matcher(inline(javadoc.substring(starts.get(i)[1], end), md)).replaceAll(""))
                        .replaceAll("\\s+", " ").strip();
                blocks.computeIfAbsent(names.get(i), k -> new ArrayList<>()).add(text);
            }
        }
        for (Map.Entry<String, List<String>> b : blocks.entrySet()) {
            String heading = switch (b.getKey()) {
                case "param" -> "Parameters";
                case "return" -> "Returns";
                case "throws", "exception" -> "Throws";
                case "see" -> "See also";
                case "since" -> "Since";
                case "deprecated" -> "Deprecated";
                default -> null;
            };
            if (heading == null) {
                continue; // @author, @apiNote, @implSpec ...: not for a tooltip
            }
            out.append("\n\n").append(md ? "**" + heading + ":**" : heading + ":");
            boolean named = b.getKey().equals("param") || b.getKey().equals("throws") || b.getKey().equals("exception");
            for (String text : b.getValue()) {
                if (named) {
                    String[] nameAndText = text.split(" ", 2);
                    String name = nameAndText[0];
                    out.append("\n- ").append(md ? "`" + name + "`" : name).append(nameAndText.length > 1 ? " " + nameAndText[1] : "");
                } else if (b.getKey().equals("see")) {
                    // a reference (Math#absExact(int)) as code, with a dot for the '#'; a quoted or linked text as it is
                    boolean reference = text.matches("[\\w.#$]+(\\([^)]*\\))?");
                    out.append("\n- ").append(reference ? code(text.startsWith("#") ? text.substring(1) : text.replace('#', '.'), md) : text);
                } else if (b.getValue().size() == 1) {
                    out.append(' ').append(text);
                } else {
                    out.append("\n- ").append(text);
                }
            }
        }
        return out.toString().strip();
    }

    /** The description: HTML blocks to paragraphs, lists and code blocks, lines of a paragraph joined. */
    private static String body(String html, boolean md) {
        String s = inline(html, md);
        // <pre> blocks keep their lines
        List<String> pres = new ArrayList<>();
        Matcher pre = Pattern.compile("(?is)<pre[^>]*>(.*?)</pre>").matcher(s);
        StringBuilder sb = new StringBuilder();
        while (pre.find()) {
            pres.add(pre.group(1).replaceAll("^\\n+|\\s+$", ""));
            pre.appendReplacement(sb, Matcher.quoteReplacement("\n\n\u0000PRE" + (pres.size() - 1) + "\u0000\n\n"));
        }
        pre.appendTail(sb);
        s = sb.toString();
        s = s.replaceAll("(?i)<br\\s*/?>", "\u0000BR\u0000");
        s = s.replaceAll("(?i)</?(p|div|ul|ol|dl|table|h\\d|blockquote)(\\s[^>]*)?>", "\n\n");
        s = s.replaceAll("(?i)<li(\\s[^>]*)?>", "\n\n\u0000LI\u0000");
        s = s.replaceAll("(?i)<(dt|tr)(\\s[^>]*)?>", "\n\n");
        s = s.replaceAll("(?i)<(td|th|dd)(\\s[^>]*)?>", " ");
        s = HTML_TAG.matcher(s).replaceAll("");
        List<String> paragraphs = new ArrayList<>();
        for (String p : s.split("\\n\\s*\\n")) {
            String text = p.strip();
            if (text.isEmpty()) {
                continue;
            }
            if (text.startsWith("\u0000PRE")) {
                String code = pres.get(Integer.parseInt(text.substring(4, text.indexOf('\u0000', 1))));
                code = entities(HTML_TAG.matcher(code).replaceAll(""));
                paragraphs.add(md ? "```java\n" + code + "\n```" : code.indent(4).stripTrailing());
                continue;
            }
            boolean item = text.startsWith("\u0000LI\u0000");
            text = entities(text.replace("\u0000LI\u0000", "").replaceAll("\\s+", " ").strip())
                    .replace("\u0000BR\u0000", md ? "  \n" : "\n").replaceAll("\n +", "\n");
            paragraphs.add(item ? "- " + text : text);
        }
        // consecutive list items form one list
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < paragraphs.size(); i++) {
            String p = paragraphs.get(i);
            if (i > 0) {
                out.append(p.startsWith("- ") && paragraphs.get(i - 1).startsWith("- ") ? "\n" : "\n\n");
            }
            out.append(p);
        }
        return out.toString();
    }

    /** Inline tags and inline HTML ({@code <code>}, {@code <b>}, links) to Markdown or text. */
    private static String inline(String s, boolean md) {
        Matcher m = INLINE_TAG.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String tag = m.group(1);
            String arg = m.group(2).strip();
            String text = switch (tag) {
                case "code", "value" -> code(arg, md);
                case "literal" -> literal(arg);
                case "link", "linkplain" -> {
                    String[] targetAndLabel = arg.split("\\s+", 2);
                    if (targetAndLabel.length > 1) {
                        yield targetAndLabel[1];
                    }
                    String target = targetAndLabel[0].startsWith("#") ? targetAndLabel[0].substring(1) : targetAndLabel[0].replace('#', '.');
                    yield tag.equals("link") ? code(target, md) : target;
                }
                case "inheritDoc", "docRoot" -> "";
                default -> arg;
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(text));
        }
        m.appendTail(sb);
        String out = HREF.matcher(sb.toString()).replaceAll("$1");
        String tick = md ? "`" : "";
        String bold = md ? "**" : "";
        String italic = md ? "*" : "";
        out = out.replaceAll("(?is)<(code|tt|var|samp|kbd)>(.*?)</\\1>", Matcher.quoteReplacement(tick) + "$2" + Matcher.quoteReplacement(tick));
        out = out.replaceAll("(?is)<(b|strong)>(.*?)</\\1>", Matcher.quoteReplacement(bold) + "$2" + Matcher.quoteReplacement(bold));
        out = out.replaceAll("(?is)<(i|em|cite|dfn)>(.*?)</\\1>", Matcher.quoteReplacement(italic) + "$2" + Matcher.quoteReplacement(italic));
        out = out.replaceAll("(?is)<sup>(.*?)</sup>", "^$1");
        out = out.replaceAll("(?is)<sub>(.*?)</sub>", "_$1");
        return out;
    }

    private static String code(String text, boolean md) {
        return md ? "`" + literal(text.replace("`", "'")) + "`" : literal(text);
    }

    /** Text shown as written: its angle brackets survive the removal of HTML tags (as entities). */
    private static String literal(String text) {
        return text.replace("<", "&lt;").replace(">", "&gt;");
    }

    /** HTML entities to characters ({@code &ge;} reads as the sign). */
    static String entities(String s) {
        Matcher m = ENTITY.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String e = m.group(1);
            String c;
            if (e.startsWith("#x") || e.startsWith("#X")) {
                c = new String(Character.toChars(Integer.parseInt(e.substring(2), 16)));
            } else if (e.startsWith("#")) {
                c = new String(Character.toChars(Integer.parseInt(e.substring(1))));
            } else {
                c = ENTITIES.getOrDefault(e, m.group());
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(c));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
