#!/usr/bin/perl
# bench/profile.pl OUT KERNEL_INFO RUN...: the instruction profile of
# `make profile` (vm/profile), from what bench/profile-guest wrote in each
# boot's folder RUN:
#   plain.tsv                      spawnbench without a tracer
#   trace/CELL-PARAM-METHOD.gz     function_graph text of that cell's spawns
#   trace/CELL-PARAM-METHOD.tsv    spawnbench's figures of those spawns
# Writes into OUT: summary.tsv, functions.tsv, diff.tsv, entry.tsv,
# folded/CELL-PARAM-METHOD.folded and profile.md. Perl core only.
#
# What a cost is. Under QEMU -icount the guest clock counts instructions, so
# function_graph's durations are instruction counts: a call's duration D runs
# from the tracer's clock read at its entry to the one at its return, and
# holds the tracer's own work: a part o of the call's own hooks, and the
# whole hooks (h) of every traced call below it. So
#   inclusive cost = D - o - h x (traced calls below it)
#   self cost      = D - (the D of its children) - o - (h - o) x (its children)
# o is the boot's cheapest call without callees (a function that does next
# to nothing: what is left is the tracer); h is what tracing added to the
# boot's spawns, less the interrupts in them, over their traced calls:
# (sum of traced - untraced round trips - interrupts) / traced calls. The
# check: with these, a method's kernel cost plus the rest of its round trip
# (user space, entry code: what function_graph does not see) is its
# untraced round trip, so the rest must come out small, positive and about
# alike for the methods. Interrupts (irq entry, handlers, softirqs: traced,
# as their own call trees inside whatever ran) are taken out of the call
# they interrupted, as a callee would be, and count nowhere: under the
# tracer a spawn lasts some 18 times longer and meets that many more timer
# ticks. Costs are per spawn: totals over the traced spawns / their number.
# The parent's read() of the child's record, which spawnbench makes after
# the round trip's clock stops, is left out.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Markdown;

my ($out, $kinfo, @runs) = @ARGV;
die "usage: $0 OUT KERNEL_INFO RUN...\n" unless $out && $kinfo && @runs;
my $BASELINE = 'vfork+execve';
my @PAIRS = (['clone-actions-raw', $BASELINE], ['iouring-raw', $BASELINE],
	['clone-actions', 'vfork'], ['clone-actions-raw', 'posix_spawn'],
	['builder-reuse-raw', $BASELINE], ['builder-raw', 'builder-reuse-raw']);
my ($MISS_LO, $MISS_HI) = (1, 16);	# path cells: failing PATH entries before the child's
my @ENTRY = (['clone-actions-raw', 'posix_spawnp'], ['iouring-raw', 'posix_spawnp'],
	['clone-actions-raw', $BASELINE], ['builder-raw', 'posix_spawnp']);
my $TOP = 10;

sub slurp { my ($f) = @_; open(my $h, '<', $f) or return undef; local $/; my $t = <$h>; close $h; return $t }

# spawnbench TSV: {cell}{param}{method}{metric} = row
sub bench_tsv {
	my ($file) = @_;
	my (%rows, @cols);
	for my $line (split /\n/, slurp($file) // return {}) {
		next if $line =~ /^#/;
		my @f = split /\t/, $line;
		if ($f[0] eq 'cell') { @cols = @f; next }
		my %row; @row{@cols} = @f;
		$rows{$row{cell}}{$row{param}}{$row{method}}{$row{metric}} = \%row;
	}
	return \%rows;
}
sub mean_of {
	my ($rows, $cell, $param, $method, $metric) = @_;
	my $row = $rows->{$cell}{$param eq '0' && $cell eq 'base' ? '-' : $param}{$method}{$metric} or return undef;
	return $row->{status} eq 'ok' ? $row->{mean} : undef;
}

# What a set of calls cost, raw: [sum of (D - children's D), calls, children];
# corr() corrects it (self costs add up: a subtree's sum is its inclusive cost)
sub add { my ($to, $x) = @_; $to->[$_] += $x->[$_] for 0 .. 2 }
sub corr { my ($x, $o, $h) = @_; return $x->[0] - $x->[1] * $o - $x->[2] * ($h - $o) }
sub zero2 { return [[0, 0, 0], [0, 0, 0]] }
# a call's frame: its callees' D and number, the interrupts among them, its cost by phase
sub zero_frame { return { child_d => 0, kids => 0, irqs => [], sub => zero2() } }
my $TOL = 2000;	# the trace's timestamps have whole microseconds

# Interrupt work that function_graph shows inside the call it interrupted:
# the irq entry and exit, the irq handlers, softirqs. A call tree that
# starts deeper than one below the call it is in is one too.
my $IRQ = qr/^(irq_enter_rcu|irq_exit_rcu|__irq_exit_rcu|__sysvec_\w+|__common_interrupt|handle_irq\w*|do_softirq|__do_softirq|handle_softirqs)$/;

# One trace: raw sums per function, folded stack and phase, the calls, the
# cheapest calls, the interrupts. Phase 0 runs from a spawn's start to the
# child's first system call, the stamp's clock_gettime() (spawnbench's
# "first"), phase 1 from there to the end of the parent's read() of the
# child's record (the exit, the wait); a call counts in the phase in which
# it returns. Only whole call trees count: the ends of the write() that
# switched the tracer on and off are fragments. Interrupts are holes: what
# they cost leaves the call they interrupted, as a callee's cost would, and
# counts nowhere.
sub parse_trace {
	my ($file) = @_;
	open(my $h, '-|', 'gzip', '-dc', $file) or die "$file: $!\n";
	my (%fn, %folded, %task, $parent);
	my ($phase, $skip_exit, $spawn) = (0, 0, 0);	# skip_exit: the end of the system call of the record's read()
	my $t = { fn => \%fn, folded => \%folded, calls => 0, all => zero2(), shape => {}, hole_d => 0, holes => {} };
	# a call has returned: D, its frame, its task; what a call tree records
	# counts once the tree's call of depth 0 has returned. D undef: a call
	# that never returns, as its task died in it (do_exit() and the calls
	# above it): it gets what its callees cost, and no cost of its own.
	my $finish = sub {
		my ($d, $fr, $tk) = @_;
		my ($stack, $role) = @$tk{qw(stack role)};
		my $up = $stack->[-1];
		if ($fr->{hole}) {
			return if !defined $d || ($up && ($up->{hole} || $up->{skip}));
			$t->{hole_d} += $d; $t->{hole_n}++; $t->{holes}{$fr->{name}}++;
			# An interrupt one below a call came in its body, or in its
			# return hook after the window closed; two below, in the entry
			# hook of a callee whose entry line comes next (the tracer had
			# made room for it), mostly after its window opened.
			my $irq = { start => $fr->{ts}, d => $d };
			my $in = $up && $up->{depth} == $fr->{depth} - 1 ? $up : ($tk->{orphan}{$fr->{depth} - 1} //= zero_frame());
			push @{$in->{irqs}}, $irq;
			return;
		}
		# the interrupts in the call's window, which is no shorter than they
		# are and ends after they did: like callees; the others its caller's
		for my $irq (@{$fr->{irqs}}) {
			my $in = !defined $d || ($irq->{d} <= $d &&
				(!defined $irq->{start} || !defined $fr->{ts} || $irq->{start} + $irq->{d} <= $fr->{ts} + $d + $TOL));
			if ($in) { $fr->{child_d} += $irq->{d}; $fr->{kids}++; $fr->{irq_in} = 1 }
			elsif ($up) { push @{$up->{irqs}}, $irq }
		}
		if ($fr->{skip}) {	# after the read() of the record, the next spawn starts
			($phase, $skip_exit, $tk->{pending}) = (0, 1, []), $spawn++ if !@$stack && $fr->{skip} == 2;
			return;
		}
		my $p = defined $d ? $phase : 1;
		my $own = defined $d ? [$d - $fr->{child_d}, 1, $fr->{kids}] : [0, 0, 0];
		$d //= $fr->{child_d};
		add($fr->{sub}[$p], $own);
		push @{$tk->{pending}}, [$fr, $own, $p, ($p ? 'after;' : 'first;') . "$role;$fr->{path}",
			!$tk->{on}{$fr->{name}}];	# recursion: the outermost call's inclusive cost
		if ($up) {
			$up->{child_d} += $d; $up->{kids}++; add($up->{sub}[$_], $fr->{sub}[$_]) for 0, 1;
			return;
		}
		for (@{$tk->{pending}}) {
			my ($c, $own, $p, $key, $outer) = @$_;
			my $f = $fn{$c->{name}} //= { calls => 0, self => zero2(), incl => zero2() };
			$f->{calls}++;
			add($f->{self}[$p], $own);
			add($f->{spawn}[$tk->{spawn} // $spawn] //= [0, 0, 0], $own);
			if ($outer) { add($f->{incl}[$_], $c->{sub}[$_]) for 0, 1 }
			add($folded{$key} //= [0, 0, 0], $own);
			add($t->{all}[$p], $own);
			$t->{calls}++;
			$t->{dead}++ unless $own->[1];
			# calls of no callee and of one, with no interrupt: D - callees' D
			$t->{shape}{$c->{name}}[$c->{kids}]{$own->[0]}++ if $own->[1] && $c->{kids} <= 1 && !$c->{irq_in};
		}
		$tk->{pending} = [];
	};
	while (my $line = <$h>) {
		die "$file: the trace lost events\n" if $line =~ /LOST \d+ EVENTS/;
		# "seconds.microseconds | comm-pid | duration | " and two spaces per
		# depth (funcgraph-abstime, -proc, -duration and -tail; no cpu or
		# overhead marks). Up to 9999.999 us the duration has every ns.
		next unless $line =~ /^\s*(?:(\d+)\.(\d{6}) \|\s*)?(.*?)-(\d+)\s+\|\s*(?:(\d+)(?:\.(\d+))? us)?\s*\|  ( *)(\S.*?)\s*$/;
		my ($ts, $pid, $us, $frac, $depth, $what) = (defined $1 ? $1 * 1e9 + $2 * 1000 : undef, $4, $5, $6 // '', length($7) / 2, $8);
		next if $what =~ m{^/\*};	# a marker or an event
		$parent //= $pid;
		my $d = defined $us ? $us * 1000 + ($frac eq '' ? 0 : $frac * 10 ** (3 - length $frac)) : undef;
		my $role = $pid == $parent ? 'parent' : 'child';
		my $tk = $task{$pid} //= { stack => [], pending => [], role => $role, spawn => $role eq 'child' ? $spawn : undef };
		my $stack = $tk->{stack};
		my $top = $stack->[-1];
		if ($what =~ /^(\S+)\(\)( \{|;)$/) {	# the entry of a call, or a leaf call
			my ($name, $leaf) = ($1, $2 eq ';');
			next if $leaf && !defined $d;
			next if !$top && $depth > 0 && !$tk->{started};	# inside a call entered before tracing
			die "$file: line $.: $name at depth $depth, inside $top->{name} at $top->{depth}\n" if $top && $depth <= $top->{depth};
			my $hole = $name =~ $IRQ || ($top ? $top->{hole} || $depth > $top->{depth} + 1 : $depth > 0);
			my $skip = 0;
			$tk->{started} = 1 unless $top || $hole;
			if (!$hole) {
				# system calls: x64_sys_call() calls __x64_sys_NAME()
				$phase = 1 if $role eq 'child' && @$stack <= 1 && $name =~ /clock_gettime/;
				if ($role eq 'parent') {
					$_->{skip} = $skip = 2 for @$stack == 1 && $name eq '__x64_sys_read' ? @$stack : ();
					$skip = 1 if !@$stack && $skip_exit && $name eq 'syscall_exit_to_user_mode_prepare';
					$skip_exit = 0 unless @$stack;
				}
			}
			my $fr = delete $tk->{orphan}{$depth} // zero_frame();
			@$fr{qw(name depth hole skip ts path)} = ($name, $depth, $hole, $skip || ($top && $top->{skip}), $ts,
				$top ? "$top->{path};$name" : $name);
			if ($leaf) { $finish->($d, $fr, $tk) }
			else { push @$stack, $fr; $tk->{on}{$name}++ }
		} elsif ($what =~ m{^\} /\* (\S+) \*/$}) {	# a return
			next unless $top && $top->{depth} == $depth && defined $d;	# of a call entered before tracing
			die "$file: line $.: $1 returns, $top->{name} was called\n" if $1 ne $top->{name};
			$tk->{on}{$1}--;
			$finish->($d, pop @$stack, $tk);
		}
	}
	close $h or die "$file: gzip -dc failed\n";
	# calls still open at the end: a dead task's exit, or the write() that
	# stopped the tracer (left out, with what ran below it)
	for my $tk (values %task) {
		my $stack = $tk->{stack};
		if (grep { $_->{name} eq 'do_exit' } @$stack) {
			while (my $fr = pop @$stack) { $tk->{on}{$fr->{name}}--; $finish->(undef, $fr, $tk) }
		} elsif (@$stack && !grep { $_->{name} =~ /write/ } @$stack) {
			die "$file: a call tree of the spawns was cut off: ", join(' ', map { $_->{name} } @$stack), "\n";
		}
	}
	$t->{tasks} = scalar keys %task;
	return $t;
}

# --- every boot: parse, calibrate, correct ------------------------------------------
my (%res, @keys);	# $res{key}{run} = { per spawn figures }; key = "cell\tparam\tmethod"
my (%o_of, %h_of, %h_rt_of, %shapes_of);
sub min_of { my ($min) = sort { $a <=> $b } grep { defined } @_; return $min }
sub median { my @v = sort { $a <=> $b } @_; return @v ? ($v[$#v / 2] + $v[@v / 2]) / 2 : undef }
# the median of a histogram {value => count} of at least MIN values
sub median_of {
	my ($hist, $min) = @_;
	my $n = 0; $n += $_ for values %$hist;
	return undef if $n < $min;
	my $seen = 0;
	for my $v (sort { $a <=> $b } keys %$hist) { $seen += $hist->{$v}; return $v if 2 * $seen >= $n }
}
for my $run (@runs) {
	my $plain = bench_tsv("$run/plain.tsv");
	my %traces;
	opendir(my $dh, "$run/trace") or die "$run/trace: $!\n";
	for my $gz (sort grep { /\.gz$/ } readdir $dh) {
		my ($cell, $param, $method) = $gz =~ /^(base|path)-(\d+)-(.+)\.gz$/ or next;
		my $tsv = bench_tsv("$run/trace/$cell-$param-$method.tsv");
		my $n = ($tsv->{$cell}{$cell eq 'base' ? '-' : $param}{$method}{roundtrip} // {})->{n};
		next unless $n && mean_of($tsv, $cell, $param, $method, 'roundtrip');
		my $t = parse_trace("$run/trace/$gz");
		@$t{qw(cell param method n traced_rt)} = ($cell, $param, $method, $n, mean_of($tsv, $cell, $param, $method, 'roundtrip'));
		$t->{plain_rt} = mean_of($plain, $cell, $param, $method, 'roundtrip');
		$t->{plain_first} = mean_of($plain, $cell, $param, $method, 'first');
		die "$run: no untraced figures of $cell $param $method\n" unless defined $t->{plain_rt};
		$traces{"$cell\t$param\t$method"} = $t;
	}
	closedir $dh;
	die "$run: no traces\n" unless %traces;
	# o: the cheapest call without callees (D = o + its own few
	# instructions). h - o: a function called without callees and with
	# one has D = o + its own cost in the first case, D - callee's D = h +
	# its own cost (and the call's) in the second; the median over such
	# functions of the difference of the medians.
	my (%shape, @diff);
	for my $t (values %traces) {
		for my $f (keys %{$t->{shape}}) {
			for my $k (0, 1) { $shape{$f}[$k]{$_} += $t->{shape}{$f}[$k]{$_} for keys %{$t->{shape}{$f}[$k] // {}} }
		}
	}
	my $o = $o_of{$run} = min_of(map { keys %{$_->[0] // {}} } values %shape);
	die "$run: no call without callees\n" unless defined $o;
	for my $f (sort keys %shape) {
		my @m = map { median_of($shape{$f}[$_] // {}, 5) } 0, 1;
		push @diff, $m[1] - $m[0] if defined $m[0] && defined $m[1];
	}
	die "$run: no function called both without a callee and with one, 5 times each\n" unless @diff;
	@diff = sort { $a <=> $b } @diff;
	my $h = $h_of{$run} = $o + $diff[$#diff / 2];
	$shapes_of{$run} = scalar @diff;
	# the check: what tracing added to the round trips, less the
	# interrupts, per traced call (an interrupt's own call is a call too,
	# with the tracer's h - o outside its window; a call that never
	# returned had only its entry hook, about half)
	my ($added, $calls, $holes) = (0, 0, 0);
	for (values %traces) {
		$added += ($_->{traced_rt} - $_->{plain_rt}) * $_->{n} - $_->{hole_d};
		$calls += $_->{calls} - ($_->{dead} // 0) / 2; $holes += $_->{hole_n} // 0;
	}
	$h_rt_of{$run} = ($added + $o * $holes) / ($calls + $holes);
	for my $key (sort keys %traces) {
		my $t = $traces{$key}; my $n = $t->{n};
		my %fn;
		for my $name (keys %{$t->{fn}}) {
			my $f = $t->{fn}{$name};
			my @self = map { corr($_, $o, $h) / $n } @{$f->{self}};
			my @incl = map { corr($_, $o, $h) / $n } @{$f->{incl}};
			$fn{$name} = { calls => $f->{calls} / $n,
				self => $self[0] + $self[1], incl => $incl[0] + $incl[1], self_first => $self[0], incl_first => $incl[0],
				# the median spawn's: an interrupt or a rare refill in a few spawns does not move it
				self_median => median(map { corr($f->{spawn}[$_] // [0, 0, 0], $o, $h) } 0 .. $n - 1) };
		}
		my %folded = map { ($_ => corr($t->{folded}{$_}, $o, $h) / $n) } keys %{$t->{folded}};
		my @kernel = map { corr($_, $o, $h) / $n } @{$t->{all}};
		push @keys, $key unless $res{$key};
		$res{$key}{$run} = {
			n => $n, o => $o, h => $h, calls => $t->{calls} / $n, tasks => $t->{tasks},
			# what the tracer added per traced call, from the round trips: h
			# if nothing else differs between the traced and untraced spawns
			h_rt => (($t->{traced_rt} - $t->{plain_rt}) * $n - $t->{hole_d} + $o * ($t->{hole_n} // 0)) /
				($t->{calls} - ($t->{dead} // 0) / 2 + ($t->{hole_n} // 0)),
			holes => $t->{hole_d} / $n,
			kernel => $kernel[0] + $kernel[1], kernel_first => $kernel[0],
			plain_rt => $t->{plain_rt}, plain_first => $t->{plain_first}, traced_rt => $t->{traced_rt},
			fn => \%fn, folded => \%folded,
		};
	}
}

# the figures of a key: the mean over the boots that have it
sub avg { my @v = grep { defined } @_; my $s = 0; $s += $_ for @v; return @v ? $s / @v : undef }
sub fig { my ($key, $what) = @_; return avg(map { $_->{$what} } values %{$res{$key} // {}}) }
sub fnfig {
	my ($key, $name, $what) = @_;
	my @boots = values %{$res{$key} // {}};
	return undef unless @boots;
	return avg(map { $_->{fn}{$name} ? $_->{fn}{$name}{$what} : 0 } @boots);
}
sub names_of { my ($key) = @_; my %n; for my $boot (values %{$res{$key} // {}}) { $n{$_} = 1 for keys %{$boot->{fn}} } return keys %n }
# |a - b| / mean(a, b) of two boots' figures
sub spread {
	my ($key, $get) = @_;
	my @v = map { $get->($res{$key}{$_}) } grep { $res{$key}{$_} } @runs;
	return undef unless @v >= 2;
	my ($min, $max) = (sort { $a <=> $b } @v)[0, -1];
	my $m = avg(@v);
	return $m ? ($max - $min) / abs($m) : 0;
}
sub key_of { join("\t", @_) }
sub fmt { my ($v) = @_; return defined $v ? sprintf('%.0f', $v) : '-' }
sub fmt1 { my ($v) = @_; return defined $v ? sprintf('%.1f', $v) : '-' }
sub fmtd { my ($v) = @_; return defined $v ? sprintf('%+.0f', $v) : '-' }
sub pct { my ($v) = @_; return defined $v ? sprintf('%.2f %%', 100 * $v) : '-' }

mkdir $out; mkdir "$out/folded";
sub write_tsv {
	my ($file, $head, @rows) = @_;
	open(my $fh, '>', "$out/$file") or die "$out/$file: $!\n";
	print $fh join("\t", @$head), "\n";
	print $fh join("\t", map { $_ // '-' } @$_), "\n" for @rows;
	close $fh;
}

# summary.tsv, functions.tsv, folded stacks (the first boot's)
my @summary;
for my $key (@keys) {
	my ($cell, $param, $method) = split /\t/, $key;
	push @summary, [$cell, $param, $method, fig($key, 'n'), scalar(grep { $res{$key}{$_} } @runs),
		map({ fmt(fig($key, $_)) } qw(plain_first kernel_first)), fmt(fig($key, 'plain_first') - fig($key, 'kernel_first')),
		map({ fmt(fig($key, $_)) } qw(plain_rt kernel)), fmt(fig($key, 'plain_rt') - fig($key, 'kernel')), fmt(fig($key, 'traced_rt')),
		map({ fmt1(fig($key, $_)) } qw(calls o h h_rt)), fmt(fig($key, 'holes')),
		pct(spread($key, sub { $_[0]{kernel} })), pct(spread($key, sub { $_[0]{plain_rt} }))];
}
write_tsv('summary.tsv', [qw(cell param method spawns boots first_untraced kernel_first rest_first
	roundtrip_untraced kernel rest roundtrip_traced calls o h h_own interrupts kernel_spread roundtrip_spread)], @summary);
my @WHAT = qw(calls incl self incl_first self_first self_median);
my @frows;
for my $key (@keys) {
	my @names = sort { fnfig($key, $b, 'incl') <=> fnfig($key, $a, 'incl') || $a cmp $b } names_of($key);
	for my $f (@names) {
		push @frows, [split(/\t/, $key), $f, sprintf('%.2f', fnfig($key, $f, 'calls')), map { fmt(fnfig($key, $f, $_)) } @WHAT[1 .. $#WHAT]];
	}
	my ($first) = grep { $res{$key}{$_} } @runs;
	my $file = join('-', split /\t/, $key) . '.folded';
	open(my $fh, '>', "$out/folded/$file") or die "$out/folded/$file: $!\n";
	my $folded = $res{$key}{$first}{folded};
	printf $fh "%s %d\n", $_, $folded->{$_} + 0.5 for sort grep { $folded->{$_} >= 0.5 } keys %$folded;
	close $fh;
}
write_tsv('functions.tsv', [qw(cell param method function), @WHAT], @frows);

# The cost of one failing PATH entry: (cost with MISS_HI failing entries
# before the child's - with MISS_LO) / (MISS_HI - MISS_LO); a function's
# with NAME, else the method's figure WHAT
sub per_entry {
	my ($method, $name, $what) = @_;
	my ($lo, $hi) = map { key_of('path', $_, $method) } $MISS_LO, $MISS_HI;
	return undef unless $res{$lo} && $res{$hi};
	my $get = defined $name ? sub { fnfig($_[0], $name, $what) } : sub { fig($_[0], $what) };
	my ($at_hi, $at_lo) = ($get->($hi), $get->($lo));
	return defined $at_hi && defined $at_lo ? ($at_hi - $at_lo) / ($MISS_HI - $MISS_LO) : undef;
}
my @entry_methods = grep { defined per_entry($_, undef, 'kernel') } do { my %m = map { $_ => 1 } map { @$_ } @ENTRY; sort keys %m };
write_tsv('entry.tsv', [qw(method first_untraced roundtrip_untraced kernel_first kernel calls)],
	map { my $m = $_; [$m, map { fmt1(per_entry($m, undef, $_)) } qw(plain_first plain_rt kernel_first kernel calls)] } @entry_methods);

# A method's functions, as compare() takes them: a getter (function, what)
# and the names; in the base cell, or per failing PATH entry
sub base_of { my ($m) = @_; my $k = key_of('base', 0, $m); return $res{$k} ? [sub { fnfig($k, $_[0], $_[1]) }, [names_of($k)]] : undef }
sub entry_of {
	my ($m) = @_;
	return undef unless defined per_entry($m, undef, 'kernel');
	return [sub { per_entry($m, $_[0], $_[1]) }, [map { names_of(key_of('path', $_, $m)) } $MISS_LO, $MISS_HI]];
}
# two methods function by function, the largest difference of self cost first
sub compare {
	my ($x, $y) = @_;
	my %n = map { $_ => 1 } @{$x->[1]}, @{$y->[1]};
	my @rows = map { my $f = $_; +{ f => $f, map { my $w = $_; ("a_$w" => $x->[0]($f, $w) // 0, "b_$w" => $y->[0]($f, $w) // 0) } @WHAT } } keys %n;
	my $d = sub { abs($_[0]{a_self_median} - $_[0]{b_self_median}) };
	return sort { $d->($b) <=> $d->($a) || abs($b->{a_self} - $b->{b_self}) <=> abs($a->{a_self} - $a->{b_self}) || $a->{f} cmp $b->{f} } @rows;
}
my @COMPARED = ((map { ['base', @$_, base_of($_->[0]), base_of($_->[1])] } @PAIRS),
	(map { ['path-entry', @$_, entry_of($_->[0]), entry_of($_->[1])] } @ENTRY));
@COMPARED = grep { $_->[3] && $_->[4] } @COMPARED;
write_tsv('diff.tsv', [qw(cell a b function), map { ("a_$_", "b_$_", "d_$_") } @WHAT],
	map { my $c = $_; map { my $r = $_; [@$c[0 .. 2], $r->{f}, map { (fmt1($r->{"a_$_"}), fmt1($r->{"b_$_"}), fmt1($r->{"a_$_"} - $r->{"b_$_"})) } @WHAT] }
		compare($c->[3], $c->[4]) } @COMPARED);

# --- profile.md ----------------------------------------------------------------------------
my $md = '';
sub out { $md .= join('', @_) }
sub table { out(Markdown::table(@_)) }
my %kv = map { /^(\w+)=(.*)$/ ? ($1 => $2) : () } split /\n/, slurp($kinfo) // '';
my @base = grep { /^base\t/ } @keys;
out("# Instruction profile of the spawn methods\n\n");
out("Made by `make profile` (vm/profile, bench/profile.pl): the combined kernel (Linux ", $kv{version} // '?',
    " with both series, ", $kv{patches} // '?', " patches, head ", $kv{head} // '?', ") in its `profile` flavour ",
    "(the release options and the function tracers), booted ", scalar(@runs), " time(s) under QEMU `-icount` ",
    "(1 ns of guest time = 1 instruction; every figure here is instructions per spawn). In each boot every method ",
    "spawns the static `stamp` child ", fig($base[0], 'n') // '?', " times per cell setting untraced, then as many times under ",
    "function_graph for spawnbench and its children only (set_ftrace_pid, function-fork; no irq functions; time a ",
    "task is scheduled out not counted). Costs are corrected for the tracer (see bench/profile.pl): inclusive = ",
    "the function and everything it calls, self = the function alone; a spawn = spawn call, the child's exec and ",
    "exit, and the parent's wait. Figures are the mean of the boots; `spread` is |boot 1 - boot 2| / mean.\n\n");
# spawnbench's syscall cell, untraced: one getppid() round trip, per boot
my @syscall = grep { defined } map { mean_of(bench_tsv("$_/plain.tsv"), 'syscall', 'getppid', 'no-spawn', 'roundtrip') } @runs;
out(sprintf("For scale, one system call round trip (getppid(), untraced, spawnbench's syscall cell): %s instructions.\n\n",
    join(' and ', map { sprintf('%.0f', $_) } @syscall))) if @syscall;
out("## Per method (base cell: absolute path, empty environment, no actions)\n\n");
out("`first`: from the spawn call to the child's first system call (spawnbench's `first`); the kernel's part of it is the ",
    "traced calls that returned before it. `rest`: the untraced figure less the kernel's, i.e. what function_graph does ",
    "not see (user space, entry code) and the error of the correction. `interrupts`: what the traced spawn's interrupts ",
    "cost (taken out). `h from round trips`: what tracing added to the round trip, less the interrupts, per traced call.\n\n");
table(['method', 'untraced first', 'kernel to first', 'untraced round trip', 'kernel', 'rest',
	'calls', 'interrupts', 'h from round trips', 'kernel spread', 'round trip spread'],
	map { my $k = $_; [(split /\t/, $k)[2], map({ fmt(fig($k, $_)) } qw(plain_first kernel_first plain_rt kernel)),
		fmt(fig($k, 'plain_rt') - fig($k, 'kernel')), fmt1(fig($k, 'calls')), fmt(fig($k, 'holes')), fmt1(fig($k, 'h_rt')),
		pct(spread($k, sub { $_[0]{kernel} })), pct(spread($k, sub { $_[0]{plain_rt} }))] } @base);
out("The tracer's cost inside a call's window, o = ", join(', ', map { fmt1($o_of{$_}) } @runs),
    " instructions (the cheapest call without callees, per boot); per traced call, h = ", join(', ', map { fmt1($h_of{$_}) } @runs),
    " (o plus the median, over ", join(', ', map { $shapes_of{$_} } @runs), " functions called both without callees and with one, ",
    "of the difference of their medians). From the round trips, less the interrupts, h would be ",
    join(', ', map { fmt1($h_rt_of{$_}) } @runs), ": the tracer also costs what is not per call (the interrupts' untraced entry, ",
    "the tracer's own bookkeeping), and a rest that grows with the calls would show h too large.\n\n");
for my $key (@base) {
	my $m = (split /\t/, $key)[2];
	my @top = (sort { fnfig($key, $b, 'incl') <=> fnfig($key, $a, 'incl') || $a cmp $b } names_of($key))[0 .. $TOP - 1];
	my @self = (sort { fnfig($key, $b, 'self_median') <=> fnfig($key, $a, 'self_median') || $a cmp $b } names_of($key))[0 .. $TOP - 1];
	out("### $m\n\n");
	table(['#', 'function (inclusive)', 'calls', 'inclusive', 'to first', 'spread', 'function (self)', 'calls', 'self, median spawn', 'self, mean', 'to first'],
		map { my ($i, $s) = ($top[$_], $self[$_]);
			[$_ + 1, $i && "`$i`", $i && sprintf('%.1f', fnfig($key, $i, 'calls')), $i && fmt(fnfig($key, $i, 'incl')),
			 $i && fmt(fnfig($key, $i, 'incl_first')), $i && pct(spread($key, sub { $_[0]{fn}{$i} ? $_[0]{fn}{$i}{incl} : 0 })),
			 $s && "`$s`", $s && sprintf('%.1f', fnfig($key, $s, 'calls')), $s && fmt(fnfig($key, $s, 'self_median')), $s && fmt(fnfig($key, $s, 'self')),
			 $s && fmt(fnfig($key, $s, 'self_first'))] }
		grep { $top[$_] || $self[$_] } 0 .. $TOP - 1);
}
# the first ROWS functions of a pair that @COMPARED has, as a table
sub compared {
	my ($cell, $ma, $mb, $rows) = @_;
	my ($c) = grep { $_->[0] eq $cell && $_->[1] eq $ma && $_->[2] eq $mb } @COMPARED or return;
	my @r = (compare($c->[3], $c->[4]))[0 .. $rows - 1];
	table(['function', "calls, $ma", "calls, $mb", "self, $ma", "self, $mb", 'Δ self', 'Δ self, mean', 'Δ self to first', 'Δ inclusive'],
		map { my $r = $_; ["`$r->{f}`", (map { sprintf('%.2f', $r->{$_}) } qw(a_calls b_calls)), (map { fmt($r->{$_}) } qw(a_self_median b_self_median)),
			map { fmtd($r->{"a_$_"} - $r->{"b_$_"}) } qw(self_median self self_first incl) ] } grep { defined } @r);
}
out("## Side by side (base cell)\n\n");
out("The functions whose self cost differs most between two methods, in the median spawn (`self`, `Δ self`: the median ",
    "over the spawns of the function's cost in one spawn, which a rare interrupt or cache refill does not move), then the ",
    "means (mean self differences add up to the difference of the kernel costs; inclusive ones show whole subtrees). ",
    "Positive: the first method spends more.\n\n");
for my $p (@PAIRS) {
	my ($ka, $kb) = map { key_of('base', 0, $_) } @$p;
	next unless $res{$ka} && $res{$kb};
	out("### $p->[0] vs $p->[1]\n\n");
	out("Kernel cost per spawn: ", fmt(fig($ka, 'kernel')), " vs ", fmt(fig($kb, 'kernel')), " (", fmtd(fig($ka, 'kernel') - fig($kb, 'kernel')),
	    "), to first instruction ", fmt(fig($ka, 'kernel_first')), " vs ", fmt(fig($kb, 'kernel_first')), " (", fmtd(fig($ka, 'kernel_first') - fig($kb, 'kernel_first')),
	    "); untraced round trip ", fmt(fig($ka, 'plain_rt')), " vs ", fmt(fig($kb, 'plain_rt')), " (", fmtd(fig($ka, 'plain_rt') - fig($kb, 'plain_rt')),
	    "), to first instruction ", fmt(fig($ka, 'plain_first')), " vs ", fmt(fig($kb, 'plain_first')), " (", fmtd(fig($ka, 'plain_first') - fig($kb, 'plain_first')), ").\n\n");
	compared('base', @$p, 20);
}
out("## One failing PATH entry\n\n");
out("Per failing entry = (cost with $MISS_HI failing PATH entries before the child's - with $MISS_LO) / ", $MISS_HI - $MISS_LO, ".\n\n");
table(['method', 'untraced first', 'kernel to first', 'untraced round trip', 'kernel', 'calls'],
	map { my $m = $_; [$m, (map { fmt(per_entry($m, undef, $_)) } qw(plain_first kernel_first plain_rt kernel)), fmt1(per_entry($m, undef, 'calls'))] } @entry_methods);
for my $m (@entry_methods) {
	my $e = entry_of($m);
	my @top = (sort { ($e->[0]($b, 'self_median') // 0) <=> ($e->[0]($a, 'self_median') // 0) || $a cmp $b }
		do { my %n = map { $_ => 1 } @{$e->[1]}; keys %n })[0 .. $TOP - 1];
	out("### Where one failing entry goes: $m\n\n");
	table(['function', 'calls', 'self, median spawn', 'self, mean', 'inclusive, mean'],
		map { my $f = $_; ["`$f`", sprintf('%.2f', $e->[0]($f, 'calls')), map { fmt($e->[0]($f, $_)) } qw(self_median self incl)] } grep { defined } @top);
}
for my $p (@ENTRY) {
	my ($ma, $mb) = @$p;
	next unless defined per_entry($ma, undef, 'kernel') && defined per_entry($mb, undef, 'kernel');
	out("### Per failing entry: $ma vs $mb\n\n");
	my ($fa, $fb) = map { per_entry($_, undef, 'plain_first') } $ma, $mb;
	out("Untraced, to first instruction: ", fmt($fa), " vs ", fmt($fb), " instructions per entry (", ($fb ? sprintf('%.2fx', $fa / $fb) : '-'), ").\n\n");
	compared('path-entry', $ma, $mb, 15);
}
out("## Files\n\n");
out("- `summary.tsv`: per method and cell setting: spawns, boots, untraced first and round trip with the kernel's part of each and the rest, traced round trip, traced calls, o, h, spreads.\n");
out("- `functions.tsv`: every traced function per method and cell setting: calls, inclusive and self cost per spawn, in all and to first instruction.\n");
out("- `diff.tsv`: the pairs above, every function (cell `base`, or `path-entry`: per failing PATH entry); `entry.tsv`: per failing PATH entry, the totals.\n");
out("- `folded/CELL-PARAM-METHOD.folded`: the first boot's folded stacks (`first;parent;f;g self-cost`: phase, task, calls), ",
    "as flame-graph tools read them (e.g. Brendan Gregg's flamegraph.pl, inferno, speedscope); Debian 12 packages none, so vm/profile draws one per method with bench/flame.pl: `flame/METHOD.svg` (base cell, boot 1).\n");
open(my $fh, '>', "$out/profile.md") or die "$out/profile.md: $!\n";
print $fh $md;
close $fh;
print "profile.pl: wrote $out/profile.md (", scalar(@keys), " traces, ", scalar(@runs), " boots)\n";
