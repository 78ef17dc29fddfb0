# bench/Markdown.pm: what bench/report.pl and bench/profile.pl write tables
# with. Perl core only.
package Markdown;
use strict;
use warnings;

# table(HEADER, ROW...): a Markdown table and the blank line after it; a
# cell that is undef shows as '-'
sub table {
	my ($head, @rows) = @_;
	return join('', '| ', join(' | ', @$head), " |\n|", join('|', map { '---' } @$head), "|\n",
		(map { '| ' . join(' | ', map { $_ // '-' } @$_) . " |\n" } @rows), "\n");
}

1;
