# bench/SeriesCost.pm: what a kernel patch series costs, read from its
# patch files alone (series-NAME/series and the git format-patch files it
# lists), for bench/report.pl. Perl core only.
#
#   my $s = SeriesCost::load(DIR);     # undef without DIR/series
#   my $c = SeriesCost::cost($s, N);   # its first N patches (all by default)
#
# cost() gives: patches, add, del (every file); each, per patch [file,
# subject, added, removed, rewritten lines]; kadd, kdel, kfiles,
# subsystems (the kernel part: every file but tools/ and Documentation/;
# a subsystem is a top-level folder, two levels under drivers/);
# files{FILE}{add,del}; exports, unexports ("SYMBOL (FILE)"); uapi, the new
# uapi symbols; opcodes (the new IORING_OP_*); syscalls (the new entries of
# the syscall tables); rewritten, the lines that a patch removes after an
# earlier patch of the series added them, and rewriting, the patches that
# do; fixups, the patches whose subject says fixup!/squash! or whose Fixes:
# tag names a patch of the series.
package SeriesCost;
use strict;
use warnings;

sub slurp { my ($f) = @_; open(my $h, '<', $f) or return undef; local $/; my $t = <$h>; close $h; return $t }

# the kernel part of a series: not its selftests and tools, not its documentation
sub kernel_file { my ($f) = @_; return $f !~ m{^(?:tools|Documentation)/} }

# a file's subsystem, for counting them: its top-level folder, two levels
# under drivers/ (drivers/tty)
sub subsystem_of { my ($f) = @_; return $f =~ m{^(drivers/[^/]+)/} ? $1 : $f =~ m{^([^/]+)/} ? $1 : $f }

sub uapi_file { my ($f) = @_; return $f =~ m{^(?:arch/[^/]+/)?include/uapi/} }
sub syscall_table { my ($f) = @_; return $f =~ m{/syscalls?/[^/]*\.tbl$} }

sub load {
	my ($dir) = @_;
	my $list = slurp("$dir/series") // return undef;
	my @patches;
	for my $p (grep { /\S/ && !/^#/ } split /\n/, $list) {
		my $t = slurp("$dir/$p") // next;
		my ($head, $rest) = split /\n---\n/, $t, 2;
		$rest //= '';
		my ($subject) = $head =~ /^Subject: (?:\[[^\]]*\] )?(.*(?:\n [^\n]*)*)/m;
		$subject //= $p;
		$subject =~ s/\n\s+/ /g;
		# format-patch --notes: "Notes:" and the text indented by four spaces
		my ($note) = $rest =~ /\A\s*Notes:\n((?:    .*\n|\n)*)/;
		$note = join(' ', map { s/^\s+//r } grep { /\S/ } split /\n/, $note // '');
		my @fixes = $head =~ /^Fixes: [0-9a-f]+ \("(.*)"\)$/mg;
		my (@lines, $file, $old, $new);	# $old, $new: the hunk's lines still to come
		for my $line (split /\n/, $t) {
			if ($line =~ m{^diff --git a/\S+ b/(\S+)}) { ($file, $old, $new) = ($1, 0, 0); next }
			next unless defined $file;
			if ($line =~ /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@ ?(.*)/) {
				($old, $new) = ($1 // 1, $2 // 1);
				push @lines, [$file, '@', $3];
				next;
			}
			next unless $old > 0 || $new > 0;
			next if $line =~ /^\\/;	# "\ No newline at end of file"
			my ($sign, $text) = $line =~ /^([-+ ])(.*)/ or next;
			$old-- if $sign ne '+';
			$new-- if $sign ne '-';
			push @lines, [$file, $sign, $text];
		}
		push @patches, { file => $p, subject => $subject, note => $note, fixes => \@fixes, lines => \@lines };
	}
	return { dir => $dir, patches => \@patches };
}

# The declarations of uapi lines: [kind, name] for a macro, an enum
# constant, a struct/union/enum tag or a member, with the context a member
# is declared in (the hunk's struct, then the nested struct it closes).
sub strip_comment { my ($l) = @_; $l =~ s{/\*.*?\*/}{ }g; $l =~ s{/\*.*}{}; $l =~ s{//.*}{}; return $l }
sub declarations {	# of one hunk: ([sign, key]...), its lines as [sign, text]
	my ($ctx, @lines) = @_;
	my ($kind, $tag) = ($ctx // '') =~ /^\s*(struct|union|enum)\s+(\w+)\s*\{/;
	my @stack = ([$kind // 'top', $tag // '', []]);	# [kind, tag, [[sign, key]...]]
	my $in_comment = 0;
	# out of the struct the hunk is named after: what was in it keeps its name
	my $leave = sub {
		my $top = $stack[0][0] =~ /^(struct|union)$/ ? "$stack[0][1]." : '';
		$_->[1] =~ s/^member /member $top/ for @{$stack[0][2]};
		@{$stack[0]}[0, 1] = ('top', '');
	};
	for my $l (@lines) {
		my ($sign, $text) = @$l;
		if ($in_comment) { $in_comment = 0 if $text =~ m{\*/}; next }
		next if $text =~ m{^\s*\*};	# a comment's body, the hunk began inside it
		$in_comment = 1 if $text =~ m{/\*} && $text !~ m{\*/};
		$text = strip_comment($text);
		my $keys = $stack[-1][2];
		if ($text =~ /^\s*#\s*define\s+(\w+)(.*)/) {
			my ($name, $value) = ($1, $2);
			push @$keys, [$sign, "macro $name"] unless $name =~ /_H_?$/ && $value !~ /\S/;	# an include guard
		} elsif ($text =~ /^\s*#/) {
		} elsif ($text =~ /^\s*(struct|union|enum)\s*(\w*)\s*\{/) {
			my ($kind, $tag) = ($1, $2);
			# one at the line's start is a new type: git named the hunk
			# after the one before it, which ended above
			$leave->() if @stack == 1 && $text =~ /^\S/;
			push @{$stack[-1][2]}, [$sign, "$kind $tag"] if $tag ne '' && @stack == 1;
			push @stack, [$kind, $tag, []];
		} elsif ($text =~ /^\s*\}\s*(\w*)\s*(?:\[[^\]]*\])?\s*;/) {
			if (@stack == 1) { $leave->(); next }	# the end of the hunk's own struct
			my ($name, $frame) = ($1, pop @stack);
			# a nested struct's members under the member it declares, a
			# tagged one's under its tag
			my $prefix = $name ne '' ? "$name." : $frame->[1] ne '' && $frame->[0] ne 'enum' ? "$frame->[1]." : '';
			push @{$stack[-1][2]}, map { [$_->[0], $_->[1] =~ s/^member /member $prefix/r] } @{$frame->[2]};
			push @{$stack[-1][2]}, [$sign, "member $name"] if $name ne '';
		} elsif ($stack[-1][0] eq 'enum') {
			push @$keys, [$sign, "macro $1"] while $text =~ /\b([A-Z_][A-Z0-9_]*)\s*(?:=[^,]*)?(?:,|$)/g;
		} elsif ($text =~ /(\w+)\s*(?:\[[^\]]*\])?\s*(?::\s*\d+\s*)?;\s*$/ && $text !~ /\(/) {
			push @$keys, [$sign, "member $1"];
		}
	}
	# what is left open: the hunk ended inside it
	while (@stack > 1) { my $f = pop @stack; push @{$stack[-1][2]}, @{$f->[2]} }
	my $top = $stack[0][0] =~ /^(struct|union)$/ ? "$stack[0][1]." : '';
	return map { [$_->[0], $_->[1] =~ s/^member /member $top/r] } @{$stack[0][2]};
}

sub cost {
	my ($s, $n) = @_;
	my @patches = @{$s->{patches}};
	$n //= @patches;
	@patches = @patches[0 .. $n - 1] if $n < @patches;
	my $c = { patches => scalar(@patches), add => 0, del => 0, kadd => 0, kdel => 0, files => {},
		exports => [], unexports => [], rewriting => [], fixups => [], rewritten => 0, each => [] };
	my %net;	# "FILE\tKEY" -> declarations added less removed
	my %syscalls;	# name -> added less removed
	my %added;	# "FILE\tTEXT" -> lines an earlier patch added, not yet removed
	my %subjects = map { $_->{subject} => 1 } @patches;
	for my $p (@patches) {
		my %mine;	# this patch's own additions
		my ($rewrote, $pa, $pd) = (0, 0, 0);
		my ($hunk_ctx, @hunk, $hunk_file);
		my $flush = sub {
			return unless defined $hunk_file && @hunk;
			for my $d (declarations($hunk_ctx, @hunk)) {
				my ($sign, $key) = @$d;
				$net{"$hunk_file\t$key"} += $sign eq '+' ? 1 : $sign eq '-' ? -1 : 0;
			}
			@hunk = ();
		};
		for my $l (@{$p->{lines}}) {
			my ($f, $sign, $text) = @$l;
			if ($sign eq '@') { $flush->(); ($hunk_file, $hunk_ctx) = ($f, $text); next }
			push @hunk, [$sign, $text] if uapi_file($f);
			next if $sign eq ' ';
			my $k = kernel_file($f);
			if ($sign eq '+') {
				$c->{add}++; $pa++; $c->{kadd}++ if $k; $c->{files}{$f}{add}++;
				push @{$c->{exports}}, "$1 ($f)" if $text =~ /EXPORT_SYMBOL(?:_GPL)?\((\w+)\)/;
				$syscalls{$1}++ if syscall_table($f) && $text =~ /^\d+\s+\w+\s+(\w+)/;
				$mine{"$f\t$text"}++ if $text =~ /\S/;
			} else {
				$c->{del}++; $pd++; $c->{kdel}++ if $k; $c->{files}{$f}{del}++;
				push @{$c->{unexports}}, "$1 ($f)" if $text =~ /EXPORT_SYMBOL(?:_GPL)?\((\w+)\)/;
				$syscalls{$1}-- if syscall_table($f) && $text =~ /^\d+\s+\w+\s+(\w+)/;
				if ($text =~ /\S/ && $added{"$f\t$text"}) { $added{"$f\t$text"}--; $rewrote++ }
			}
		}
		$flush->();
		$added{$_} += $mine{$_} for keys %mine;
		$c->{rewritten} += $rewrote;
		push @{$c->{each}}, [$p->{file}, $p->{subject}, $pa, $pd, $rewrote];
		push @{$c->{rewriting}}, $p->{subject} if $rewrote;
		push @{$c->{fixups}}, $p->{subject}
			if $p->{subject} =~ /^(?:fixup|squash)!/ || grep { $subjects{$_} } @{$p->{fixes}};
	}
	my @new = sort grep { $net{$_} > 0 } keys %net;
	$c->{uapi} = [map { my ($f, $k) = split /\t/; ($k) x $net{$_} } @new];
	$c->{uapi_files} = { map { (split /\t/)[0] => 1 } @new };
	$c->{opcodes} = [grep { /^IORING_OP_/ } map { s/^macro //r } @{$c->{uapi}}];
	$c->{syscalls} = [sort grep { $syscalls{$_} > 0 } keys %syscalls];
	my @kf = grep { kernel_file($_) } keys %{$c->{files}};
	$c->{kfiles} = scalar(@kf);
	$c->{subsystems} = { map { subsystem_of($_) => 1 } grep { m{/} } @kf };
	return $c;
}

# patches whose notes say they are new in revision REV ("New in v3")
sub new_in { my ($s, $rev) = @_; return grep { $s->{patches}[$_]{note} =~ /^New in \Q$rev\E\b/ } 0 .. $#{$s->{patches}} }

1;
