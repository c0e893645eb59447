package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The first use of an undefined name in a declaration's source, as JShell names it ("method f()", "variable x"). */
class UnresolvedNamesTest {
    @Test
    void aCallInAMethodBodySkippingStringsAndComments() {
        String src = "void m() {\n  // nowhere()\n  String s = \"nowhere()\";\n  nowhere(1);\n}";
        assertEquals(src.indexOf("nowhere(1)"), UnresolvedNames.find(src, "method nowhere(int)"));
    }

    @Test
    void aVariableIsNotACallOfTheSameName() {
        String src = "int f() { return rate() + rate; }";
        assertEquals(src.lastIndexOf("rate"), UnresolvedNames.find(src, "variable rate"));
        assertEquals(src.indexOf("rate"), UnresolvedNames.find(src, "method rate()"));
    }

    @Test
    void aTypeInAFieldAMethodSignatureOrANewExpression() {
        String field = "class K { Missing m; }";
        assertEquals(10, UnresolvedNames.find(field, "class Missing"));
        String ret = "interface I { Zork z(); }";
        assertEquals(14, UnresolvedNames.find(ret, "class Zork"));
        String created = "class C { Object o = new Absent(); }";
        assertEquals(25, UnresolvedNames.find(created, "class Absent"));
    }

    @Test
    void leadingBlankLinesAndNestedBodiesKeepTheirOffsets() {
        String src = "\n\nrecord R(int a) {\n  int g() { return a + missing; }\n}";
        assertEquals(src.indexOf("missing"), UnresolvedNames.find(src, "variable missing"));
        String en = "enum E { A; int q() { return nope; } }";
        assertEquals(29, UnresolvedNames.find(en, "variable nope"));
    }

    @Test
    void nothingFoundIsMinusOne() {
        assertEquals(-1, UnresolvedNames.find("void m() { }", "method elsewhere()"));
        assertEquals(-1, UnresolvedNames.find("void m() { ", "method elsewhere()"));
    }
}
