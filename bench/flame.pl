#!/usr/bin/perl
# bench/flame.pl FOLDED TITLE > SVG: a flame graph of folded stacks
# ("a;b;c cost" per line, as bench/profile.pl writes them), drawn as an SVG
# with nothing but Perl: the root at the bottom, each frame as wide as its
# inclusive cost, callees above their caller in name order. Hovering a frame
# shows its name, cost and share (an SVG <title>). Debian 12 packages no
# flame graph tool, so vm/profile draws these itself.
use strict;
use warnings;

my ($folded, $title) = @ARGV;
die "usage: $0 FOLDED TITLE\n" unless defined $title;
open(my $in, '<', $folded) or die "$folded: $!\n";

# the call tree: { cost => inclusive, kids => { name => node } }
my $root = { cost => 0, kids => {} };
while (my $line = <$in>) {
	my ($stack, $cost) = $line =~ /^(.*) (-?\d+(?:\.\d+)?)$/ or next;
	next if $cost <= 0;	# the tracer correction can leave a frame below 0
	my $node = $root;
	$node->{cost} += $cost;
	for my $name (split /;/, $stack) {
		$node = $node->{kids}{$name} //= { cost => 0, kids => {} };
		$node->{cost} += $cost;
	}
}
close $in;
die "$folded: no stacks\n" unless $root->{cost} > 0;

my ($width, $row, $pad) = (1200, 16, 10);
my $scale = ($width - 2 * $pad) / $root->{cost};
my ($depth, @frames) = (0);
sub place {	# a frame and its callees, left edge $x, level $level
	my ($name, $node, $x, $level) = @_;
	push @frames, [$name, $node->{cost}, $x, $level];
	$depth = $level if $level > $depth;
	for my $kid (sort keys %{$node->{kids}}) {
		place($kid, $node->{kids}{$kid}, $x, $level + 1);
		$x += $node->{kids}{$kid}{cost};
	}
}
place('all', $root, 0, 0);

sub esc { my ($s) = @_; $s =~ s/&/&amp;/g; $s =~ s/</&lt;/g; $s =~ s/>/&gt;/g; return $s }
sub colour {	# warm, fixed per name
	my $h = 0;
	$h = ($h * 31 + ord) % 65536 for split //, $_[0];
	return sprintf('rgb(%d,%d,%d)', 205 + $h % 50, 80 + ($h >> 4) % 120, 40 + ($h >> 8) % 50);
}
my $height = ($depth + 1) * $row + 3 * $pad + 20;
print qq(<?xml version="1.0" standalone="no"?>\n),
	qq(<svg xmlns="http://www.w3.org/2000/svg" width="$width" height="$height" font-family="monospace" font-size="11">\n),
	qq(<rect width="100%" height="100%" fill="#fdfdf6"/>\n),
	sprintf(qq(<text x="%d" y="%d" font-size="14">%s</text>\n), $pad, $pad + 12, esc($title));
for my $f (@frames) {
	my ($name, $cost, $x, $level) = @$f;
	my $w = $cost * $scale;
	next if $w < 0.3;
	my ($px, $py) = ($pad + $x * $scale, $height - $pad - ($level + 1) * $row);
	my $label = $w > 30 ? substr($name, 0, int(($w - 4) / 6.6)) : '';
	printf(qq(<g><title>%s: %.0f (%.2f %%)</title><rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" stroke="#fdfdf6" stroke-width="0.5"/>),
		esc($name), $cost, 100 * $cost / $root->{cost}, $px, $py, $w, $row - 1, colour($name));
	printf(qq(<text x="%.1f" y="%d">%s</text>), $px + 2, $py + $row - 4, esc($label)) if $label ne '';
	print "</g>\n";
}
print "</svg>\n";
