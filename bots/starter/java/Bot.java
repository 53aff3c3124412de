// A Skip-Bo bot to start from: Java 11 or later, no dependencies (a small
// JSON reader is at the bottom of this file).
//
// The arena starts this program and talks to it over stdin/stdout, one JSON
// object per line (protocol/PROTOCOL.md). Anything written to stdout goes to
// the arena, so log with log() (stderr) instead. Build and run (README.md):
//
//     javac -d /tmp/mybot Bot.java && skipbo-arena play -- java -cp /tmp/mybot Bot -- skipbo-easy
//
// The policy is deliberately simple: play the stock card when you can, else
// play any non-wild card, else discard. Make it smarter in choose().
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class Bot {
    static final String NAME = "starter-java";
    static final int WILD = 0; // cards are 1..12, and 0 for the SKIP-BO wild

    static void log(String s) { System.err.println(NAME + ": " + s); System.err.flush(); }

    // A parsed JSON value is a Map, List, String, Long, Double, Boolean or null.
    @SuppressWarnings("unchecked") static Map<String, Object> obj(Object o) { return (Map<String, Object>) o; }
    @SuppressWarnings("unchecked") static List<Object> arr(Object o) { return (List<Object>) o; }
    static int num(Object o) { return ((Number) o).intValue(); }

    // The top of one of my discard piles, or -1 when it is empty. A view's
    // players[seat].discards holds four piles, each bottom first.
    static int discardTop(Map<String, Object> view, int pile) {
        Map<String, Object> me = obj(arr(view.get("players")).get(num(view.get("seat"))));
        List<Object> d = arr(arr(me.get("discards")).get(pile));
        return d.isEmpty() ? -1 : num(d.get(d.size() - 1));
    }

    // How well card sits on one of my discard piles: 0 best (the same card or
    // one higher below it, so it can be played later), 1 empty, 2 else.
    static int fit(Map<String, Object> view, int card, int pile) {
        int top = discardTop(view, pile);
        if (top == card || top == card + 1) return 0;
        return top < 0 ? 1 : 2;
    }

    static int rank(int card) { return card == WILD ? -1 : card; } // wilds rank lowest

    // Pick one move from the legal list. Echoing an element of it is always right.
    static Map<String, Object> choose(Map<String, Object> view, List<Object> legal) {
        // 1. The stock card first: emptying your stock is how you win.
        for (Object o : legal)
            if ("play".equals(obj(o).get("action")) && "stock".equals(obj(o).get("from"))) return obj(o);
        // 2. Any play that does not spend a wild (wilds are worth keeping).
        for (Object o : legal)
            if ("play".equals(obj(o).get("action")) && num(obj(o).get("card")) != WILD) return obj(o);
        // 3. Discard, which ends the turn: the highest non-wild card (a wild
        //    only if nothing else is left), on the pile where it fits best.
        Map<String, Object> best = null;
        for (Object o : legal) {
            Map<String, Object> m = obj(o);
            if (!"discard".equals(m.get("action"))) continue;
            int card = num(m.get("card"));
            if (best == null || rank(card) > rank(num(best.get("card")))
                    || (card == num(best.get("card"))
                        && fit(view, card, num(m.get("pile"))) < fit(view, card, num(best.get("pile")))))
                best = m;
        }
        // 4. Nothing else is left: a pass (legal only with an empty hand).
        return best != null ? best : obj(legal.get(0));
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) { // null at EOF: the arena closed our stdin
            Map<String, Object> msg;
            try {
                msg = obj(new Json(line).value());
            } catch (RuntimeException e) {
                log("not a JSON object, ignored: " + e.getMessage());
                continue;
            }
            Object type = msg.get("type");
            if ("hello".equals(type)) {
                send(out, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"" + NAME + "\",\"version\":\"1.0\"}");
            } else if ("game_start".equals(type)) {
                log("game " + msg.get("game") + ", seat " + msg.get("seat") + " of " + msg.get("players"));
            } else if ("request".equals(type)) {
                // "events" lists what happened since our last request; this bot
                // does not read them, but a smarter one can track the game there.
                Map<String, Object> move = choose(obj(msg.get("view")), arr(msg.get("legal")));
                send(out, "{\"type\":\"move\",\"move\":" + Json.write(move) + "}");
            } else if ("game_end".equals(type)) {
                log("game " + msg.get("game") + " over: " + msg.get("reason") + ", winners " + msg.get("winners"));
            } else if ("quit".equals(type)) {
                break;
            } // Any other message type is new to this bot: ignore it.
        }
    }

    // One JSON object per line; flush, or the arena waits for nothing.
    static void send(PrintStream out, String line) { out.print(line + "\n"); out.flush(); }

    // A small strict JSON reader (RFC 8259) and a writer for what it reads.
    // Integers become Long, so that they are written back as integers.
    static final class Json {
        private final String s;
        private int i;
        Json(String s) { this.s = s; }

        Object value() {
            Object v = read();
            ws();
            if (i != s.length()) throw error("trailing characters");
            return v;
        }
        private RuntimeException error(String what) { return new IllegalArgumentException(what + " at " + i); }
        private void ws() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; }
        private void expect(char c) { ws(); if (i >= s.length() || s.charAt(i) != c) throw error("expected " + c); i++; }
        private Object read() {
            ws();
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++; ws();
                if (s.charAt(i) == '}') { i++; return m; }
                do { ws(); String k = string(); expect(':'); m.put(k, read()); ws(); } while (s.charAt(i++) == ',');
                if (s.charAt(i - 1) != '}') throw error("expected , or }");
                return m;
            }
            if (c == '[') {
                List<Object> a = new ArrayList<>();
                i++; ws();
                if (s.charAt(i) == ']') { i++; return a; }
                do { a.add(read()); ws(); } while (s.charAt(i++) == ',');
                if (s.charAt(i - 1) != ']') throw error("expected , or ]");
                return a;
            }
            if (c == '"') return string();
            for (String w : new String[] {"true", "false", "null"})
                if (s.startsWith(w, i)) { i += w.length(); return w.equals("null") ? null : w.equals("true"); }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String n = s.substring(start, i);
            if (n.isEmpty()) throw error("expected a value");
            return n.matches("-?(0|[1-9][0-9]*)") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
        }
        private String string() {
            if (s.charAt(i) != '"') throw error("expected a string");
            StringBuilder b = new StringBuilder();
            for (i++; s.charAt(i) != '"'; i++) {
                char c = s.charAt(i);
                if (c != '\\') { b.append(c); continue; }
                c = s.charAt(++i);
                if (c == 'u') { b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; }
                else b.append(c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == 'b' ? '\b' : c == 'f' ? '\f' : c);
            }
            i++;
            return b.toString();
        }
        static String write(Object v) {
            if (v == null) return "null";
            if (v instanceof String) {
                StringBuilder b = new StringBuilder("\"");
                for (char c : ((String) v).toCharArray())
                    b.append(c == '"' || c == '\\' ? "\\" + c : c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                return b.append('"').toString();
            }
            if (v instanceof Map) {
                StringJoiner j = new StringJoiner(",", "{", "}");
                obj(v).forEach((k, x) -> j.add(write(k) + ":" + write(x)));
                return j.toString();
            }
            if (v instanceof List) {
                StringJoiner j = new StringJoiner(",", "[", "]");
                for (Object x : arr(v)) j.add(write(x));
                return j.toString();
            }
            return v.toString(); // Long, Double, Boolean
        }
    }
}
