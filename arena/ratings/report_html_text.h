/*
 * report_html_text.h - text made safe for HTML: the one escaping every part
 * of report.html uses (a leaf: it calls nothing of the reports).
 */
#ifndef SKIPBO_REPORT_HTML_TEXT_H
#define SKIPBO_REPORT_HTML_TEXT_H

#include <stdio.h>

/* s as HTML text or attribute value: & < > " ' escaped. */
void report_html_text(FILE *out, const char *s);

#endif
