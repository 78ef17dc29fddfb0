#!/usr/bin/perl
# bench/report.pl REPORT_DIR: writes REPORT_DIR/REPORT.md and the SVG plots
# in REPORT_DIR/plots from what vm/report collected in REPORT_DIR:
#   machine                 key=value facts about the host
#   runs/RUN/meta           key=value: kernel series, flavour, clock, accelerator
#   runs/RUN/bench.tsv      spawnbench's results
#   results/                TAP files and matrix.md (vm/tap-summary), the
#                           real clients' clients-RUN.tap among them
#   caps.tsv                spawnbench --caps
#   kernels/SERIES          build/kbuild/SERIES-release/spawnlab-kernel
#   kbuild-SERIES.log       vm/build-kernel's output
#   abi/SERIES-debug/       vm/by-test's run of the io_uring ABI tests
#   make-time/CONFIG/       GNU make's timed build (make-time.tsv, meta)
#   checkpatch/SERIES/      scripts/checkpatch.pl --strict, one PATCH.txt a patch
#   perpatch/SERIES.tsv     vm/build-each-patch's result per patch: patch,
#                           commit, result (ok, FAIL: ..., not built)
# and, from the repository (SPAWNLAB_TOP): series-*/ (the patches, for the
# kernel cost), docs/hazards.tsv, build/linux (the base tree's uapi).
# It writes REPORT.md, opening with the decision brief, and brief.txt, the
# brief as plain text that fits 100 columns (for mail).
# Every number in REPORT.md comes from those files; nothing is typed in.
# Perl core only.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Markdown;
use SeriesCost;

my $dir = shift or die "usage: $0 REPORT_DIR\n";
my $top = $ENV{SPAWNLAB_TOP} // '.';
my @SERIES = qw(iouring clone-actions builder);
my @METHODS = qw(fork+execve vfork+execve posix_spawn posix_spawnp vfork iouring-raw iouring clone-actions-raw
	clone-actions builder-raw builder-reuse-raw builder);
my $BASELINE = 'vfork+execve';
# libcompat's backends and the raw call each wraps; issue 14's target for
# the library's own cost, to the child's first instruction
my @LIBRARY = (['vfork', 'vfork+execve'], ['iouring', 'iouring-raw'], ['clone-actions', 'clone-actions-raw'],
	['builder', 'builder-raw']);
my $LIBRARY_TARGET = 1.03;
my $NO_SPAWN = 'no-spawn';	# the async cell's parent working alone

sub slurp { my ($f) = @_; open(my $h, '<', $f) or return undef; local $/; my $t = <$h>; close $h; return $t }
sub keyvals {
	my ($f) = @_; my %kv; my $t = slurp($f) // return {};
	for (split /\n/, $t) { $kv{$1} = $2 if /^([\w.-]+)=(.*)$/ }
	return \%kv;
}
# 3 significant digits, in microseconds
sub us {
	my ($ns) = @_; return '-' unless defined $ns && $ns ne '-';
	my $u = $ns / 1000;
	return $u >= 100 ? sprintf('%.0f', $u) : $u >= 10 ? sprintf('%.1f', $u) : sprintf('%.2f', $u);
}
sub ratio { my ($a, $b) = @_; return (defined $a && defined $b && $b > 0) ? sprintf('%.2f', $a / $b) : '-' }
sub pct { sprintf('%.2f %%', 100 * $_[0]) }
sub median_of { my @v = sort { $a <=> $b } @_; return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2 }
sub wrap {	# a paragraph in lines of at most 100 columns, the next ones indented
	my ($text, $indent) = @_;
	my ($out, $line) = ('', '');
	for my $w (split ' ', $text) {
		if ($line ne '' && length($line) + 1 + length($w) > 100) { $out .= "$line\n"; $line = ($indent // '') . $w }
		else { $line .= ($line =~ /\S/ ? ' ' : '') . $w }
	}
	return "$out$line\n";
}
sub n_of { my ($n, $what) = @_; return "$n $what" . ($n == 1 ? '' : $what =~ /(?:s|ch)$/ ? 'es' : 's') }
sub anchor {	# a heading's anchor, as GitHub and most renderers make it
	my ($h) = @_; $h = lc $h; $h =~ s/[^\w\- ]//g; $h =~ s/ /-/g; return $h }

# --- the runs ------------------------------------------------------------------
my %run;	# name -> { meta, rows{cell}{param}{method}{metric} = row hash, header, order }
my @run_names;
if (opendir(my $rd, "$dir/runs")) { @run_names = sort grep { !/^\./ } readdir $rd; closedir $rd }
for my $name (@run_names) {
	my $tsv = slurp("$dir/runs/$name/bench.tsv");
	my $meta = keyvals("$dir/runs/$name/meta");
	my $r = { name => $name, meta => $meta, rows => {}, methods => {} };
	$run{$name} = $r;
	next unless defined $tsv;
	my @cols;
	for my $line (split /\n/, $tsv) {
		if ($line =~ /^# spawnbench (.*)/) { $r->{header} = $1; $r->{hdr}{$1} = $2 while $1 =~ /(\w+)=(\S+)/g; next }
		if ($line =~ /^# spawnbench/) { next }
		if ($line =~ /^# method (\S+): (.*)/) { $r->{methods}{$1} = $2; next }
		if ($line =~ /^# done in (\S+)/) { $r->{seconds} = $1; next }
		next if $line =~ /^#/;
		my @f = split /\t/, $line;
		if ($f[0] eq 'cell') { @cols = @f; next }
		my %row; @row{@cols} = @f;
		$r->{rows}{$row{cell}}{$row{param}}{$row{method}}{$row{metric}} = \%row;
		push @{$r->{order}{$row{cell}}}, $row{param} unless grep { $_ eq $row{param} } @{$r->{order}{$row{cell}} // []};
	}
	# the header's fields, parsed properly
	if ($r->{header}) { my %h = $r->{header} =~ /(\w+)=(\S+)/g; $r->{hdr} = \%h }
}
my @guest_runs = grep { ($run{$_}{meta}{place} // '') eq 'guest' } sort keys %run;
my ($icount1, $icount2) = grep { ($run{$_}{meta}{clock} // '') eq 'icount' } sort keys %run;
my $combined_wall = (grep { ($run{$_}{meta}{series} // '') eq 'combined' && ($run{$_}{meta}{clock} // '') eq 'wall' && $run{$_}{rows}{base} } sort keys %run)[0];
# the run of the same kernel and clock with two vCPUs (throughput only), if any
sub smp2_of { my ($n) = @_; return (grep { $_ ne $n && ($run{$_}{meta}{series} // '') eq ($run{$n}{meta}{series} // '') && ($run{$_}{meta}{vcpus} // 0) == 2 && ($run{$_}{meta}{place} // '') eq 'guest' && $run{$_}{rows}{tput} } sort keys %run)[0] }

sub val {	# median (or another column) of a row, undef unless ok
	my ($r, $cell, $param, $method, $metric, $col) = @_;
	my $row = $r->{rows}{$cell}{$param}{$method}{$metric} or return undef;
	return undef unless $row->{status} eq 'ok';
	return $row->{$col // 'median'};
}
sub status {
	my ($r, $cell, $param, $method, $metric) = @_;
	my $row = $r->{rows}{$cell}{$param}{$method}{$metric};
	return $row ? $row->{status} : 'not run';
}
sub methods_of { my ($r) = @_; return grep { exists $r->{methods}{$_} } @METHODS }

# --- output -------------------------------------------------------------------------
my $md = '';
sub out { $md .= join('', @_) }
sub table { out(Markdown::table(@_)) }

my $machine = keyvals("$dir/machine");
out("# spawnlab report: Linux spawn ABIs compared\n\n");
out("Generated by `make report` (vm/report, bench/report.pl) on ", $machine->{date} // 'an unknown date (no `machine` file)',
    defined $machine->{report_seconds} ? ", in $machine->{report_seconds} s" : '',
    ". Every figure below comes from the runs listed in [Raw data](#raw-data).\n\n");

my @accels = sort keys %{{ map { ($run{$_}{meta}{accel} // '?') => 1 } @guest_runs }};
if (!@accels) {
	out("No benchmark ran in a guest.\n\n");
} elsif (grep { $_ ne 'kvm' } @accels) {
	out("**Absolute times are QEMU TCG times (software emulation), not hardware times.** ",
	    "This machine has no usable KVM, so every guest instruction is translated; system calls, ",
	    "page faults and page-table work cost far more than on hardware. Read ratios measured in the ",
	    "same boot, and the instruction counts of the icount runs, rather than the absolute values.\n\n");
} else {
	out("The guests ran under KVM: absolute times are (virtualised) hardware times.\n\n");
}
my $brief_at = length $md;	# the decision brief goes here, once everything is read

# --- machine and kernels ---------------------------------------------------------------
out("## Machine and kernels\n\n");
table(['what', 'value'],
	['host CPU', $machine->{cpu}], ['host CPUs', $machine->{cpus}], ['host memory', $machine->{memory}],
	['host kernel', $machine->{host_kernel}], ['QEMU', $machine->{qemu}], ['glibc', $machine->{glibc}],
	['compiler', $machine->{cc}]);
my @krows;
# the RFC as posted: a debug kernel for its ABI tests only
# the combined kernel's series, in vm/kernel-tree's order
my ($combined_series) = (slurp("$top/vm/kernel-tree") // '') =~ /^combined_series=\(([^)]*)\)/m;
my %FROM = (combined => $combined_series ? join(' + ', map { "series-$_" } split ' ', $combined_series) : 'the series of vm/kernel-tree\'s combined tree',
	'iouring-rfc' => 'series-iouring-rfc: the RFC as posted');
for my $k (@SERIES, 'combined', -f "$dir/kernels/iouring-rfc" ? 'iouring-rfc' : ()) {
	my $info = keyvals("$dir/kernels/$k");
	my @runs = grep { ($run{$_}{meta}{series} // '') eq $k } @guest_runs;
	my %acc = map { ($run{$_}{meta}{accel} // '?') => 1 } @runs;
	$acc{$_} = 1 for grep { defined && $k eq 'iouring-rfc' } keyvals("$dir/abi/$k-debug/kernel")->{accelerator};
	my $uname = (map { $run{$_}{hdr}{kernel} } grep { $run{$_}{hdr} } @runs)[0];
	push @krows, [$k, $uname // ($info->{version} ? "$info->{version}-$k" : 'not built'),
		$FROM{$k} // "series-$k",
		$info->{patches} // '-', $info->{head} // '-', $info->{flavour} // '-',
		join(', ', sort keys %acc) || '-', join(', ', @runs) || ($k eq 'iouring-rfc' ? 'none: ABI tests only' : 'none')];
}
table(['kernel', 'uname -r (in the guest)', 'patches from', 'patches', 'tree head', 'flavour', 'accelerator', 'benchmark runs'], @krows);
# How the two series meet in the combined kernel: the resolutions kept in
# series-combined/ always hold; three-way merges show only in a log of a
# build that applied the patches.
if (-f "$dir/kernels/combined" || -e "$dir/kbuild-combined.log") {
	my $log = slurp("$dir/kbuild-combined.log") // '';
	my @failed = $log =~ /(combined kernel: .* conflicts .*)/g;
	my @merged = $log =~ /combined: (\S+) does not apply as it is/g;
	my (@skipped, @replaced);
	for my $f (sort glob("$top/series-combined/*/*.patch")) {
		my $p = $f =~ s{^.*/series-combined/}{}r;
		if (-s $f) { push @replaced, "`series-$p` by `series-combined/$p`" } else { push @skipped, "`series-$p`" }
	}
	my @said;
	push @said, "The combined kernel did not build: $_" for @failed;
	push @said, "Both series make the same change: the combined kernel skips " . join(', ', @skipped) . " (an empty file in series-combined/ says so)." if @skipped;
	push @said, "Resolved for the combined kernel: " . join(', ', @replaced) . "." if @replaced;
	push @said, "Applied by a three-way merge on top of the other series in this run: " . join(', ', map { "`$_`" } @merged) . "." if @merged;
	push @said, "Otherwise the two series apply together as they are." if !@failed && !@merged && $log =~ /combined: applying/;
	push @said, "The combined tree was applied before this run (`build/src/combined`); `vm/kernel-tree apply combined` says how its patches applied." if !@failed && $log !~ /combined: applying/;
	out(join(' ', @said), "\n\n");
}
my @gruns;
for my $n (sort keys %run) {
	my $r = $run{$n}; my $m = $r->{meta};
	my $lat = $r->{rows}{base} ? 1 : 0;
	push @gruns, [$n, $m->{place} // '-', $m->{series} // '-', $m->{clock} // '-', $m->{accel} // '-',
		$m->{vcpus} // '-', $lat ? $r->{hdr}{iters} // '-' : '-', $lat ? $r->{hdr}{sweep_iters} // '-' : '-', $lat ? $r->{hdr}{mem_iters} // '-' : '-',
		defined $r->{hdr}{tput} ? "$r->{hdr}{tput_reps} x $r->{hdr}{tput}" : '-',
		$r->{rows}{async} ? $r->{hdr}{async_spawns} // '-' : '-',
		$r->{seconds} // ('failed: ' . ($m->{status} // '?')), $m->{seconds} // '-'];
}
out("Benchmark runs (iterations per method after $run{(sort keys %run)[0]}{hdr}{warmup} warm-up spawns; methods take turns in blocks of ",
    ($run{(sort keys %run)[0]}{hdr}{block} // '?'), "):\n\n") if %run && $run{(sort keys %run)[0]}{hdr};
table(['run', 'where', 'kernel', 'clock', 'accelerator', 'vCPUs', 'base', 'sweeps', 'touched memory', 'throughput (runs x spawns/thread)', 'async (spawns per k)', 'benchmark s', 'boot+benchmark s'], @gruns);

# --- conformance ---------------------------------------------------------------------------
out("## Conformance\n\n");
if (my $sum = slurp("$dir/results/summary.txt")) {
	out("Corpus runs (place/backend: results), from vm/tap-summary:\n\n```\n$sum```\n\n");
}
my $safety;	# vm/tap-summary's table of the safety suite, at the end of matrix.md
if (my $matrix = slurp("$dir/results/matrix.md")) {
	$matrix =~ s/^# Conformance matrix\n\n//;
	$safety = $1 if $matrix =~ s/\n## Safety suite\n\n(.*)\z/\n/s;
	out("Every corpus test x (place/backend); places are the host, the debug kernels of `make check` ",
	    "and the combined release kernel. `unsupported` carries the backend's reason; `diverges` marks a ",
	    "request the backend accepts but cannot carry out as documented, with why and what happens ",
	    "instead. Both are pinned in `common-tests/expected.txt`; any other skip or divergence fails.\n\n",
	    $matrix, "\n");
} else {
	out("No conformance results (build/results/matrix.md is missing and the corpus did not run).\n\n");
}

# --- safety ----------------------------------------------------------------------------------
out("## Safety\n\n");
if ($safety) {
	out("The corpus' safety suite (`common-tests/safety.c`; docs/safety.md) again, on its own: ",
	    "a seccomp filter holds the spawn's calls, a tracer that follows forks sees the child (or the spawn ",
	    "is refused), a killed caller leaves nothing behind, a blocked `waitpid(-1)` returns when a spawn ",
	    "fails, a set-uid exec that fails past its point of no return runs nothing after it, a child has no ",
	    "more privilege than its caller. `posix` (glibc) and `vfork` are what users have today; `diverges` ",
	    "is a hazard of the backend's design, with what happened; `unsupported`, a request the backend ",
	    "cannot express.\n\n", $safety, "\n");
} else {
	out("No safety results (build/results/matrix.md has no safety table: the corpus did not run).\n\n");
}

# --- hazards -------------------------------------------------------------------------------
# docs/hazards.tsv: what review found in each series, its state and severity,
# and the test that shows it, with that test's result in this run's TAP.
my %taps_of = map { $_ => [split /\n/, (slurp($_) // '')] } split /\n/, `find "$dir/results" -name '*.tap' 2>/dev/null`;
# A corpus test counts on the series' own backend only (results/PLACE/
# SERIES.tap): the same test may be pinned as diverging on another backend.
sub hazard_result {	# the test's TAP lines under results/: ok, FAIL, skip, diverges, or -
	my ($test, $series) = @_;
	return '-' if $test eq '-';
	(my $name = $test) =~ s/^[^.]*\.//;
	my @taps = $test =~ /^corpus\./ ? map { @{$taps_of{$_}} } grep { m{/\Q$series\E\.tap$} } keys %taps_of
		: map { @$_ } values %taps_of;
	my %seen;
	for (grep { /\Q$name\E(?:\s|$)/ } @taps) {
		$seen{/# TODO/ ? 'diverges' : /^not ok/ ? 'FAIL' : /# SKIP/ ? 'skip' : 'ok'}++;
	}
	return join(', ', map { "$_ $seen{$_}" } sort keys %seen) || 'not run';
}
out("## Hazards\n\n");
my @hazards;	# [series, finding, state, severity, test, why]
if (my $h = slurp("$top/docs/hazards.tsv")) {
	my @rows = grep { !/^#/ && !/^series\t/ && /\t/ } split /\n/, $h;
	@hazards = map { [split /\t/] } @rows;
	out("What review found in each series (`docs/hazards.tsv`; the \"Hazards\" section of each design's document in docs/): its state (fixed, ",
	    "open, inherent, or narrowed: the promise cut to what the code does), its severity, and the test ",
	    "that shows it with its result in this run (one count per place the test ran).\n\n");
	table(['series', 'finding', 'state', 'severity', 'test', 'result here', 'why'],
	      map { my @f = split /\t/; [@f[0 .. 4], hazard_result($f[4], $f[0]), $f[5]] } @rows);
	out("\n");
} else {
	out("No docs/hazards.tsv.\n\n");
}

# --- the RFC as posted ---------------------------------------------------------------------
# vm/by-test's results of the io_uring ABI tests on the RFC's own patches
# (abi/iouring-rfc-debug/: results.tsv, splats.tsv, kernel), next to the
# series' (abi/iouring-debug/ when vm/report ran it, else the TAP of the
# iouring-debug or combined-debug guest run).
sub by_test {	# suite/name => { status, detail, splats => [lines] }, or undef
	my ($d) = @_;
	my $t = slurp("$d/results.tsv") // return undef;
	my %r;
	for (split /\n/, $t) {
		my ($test, $st, undef, $det) = split /\t/, $_, 4;
		$r{$test} = { status => $st, detail => $det // '', splats => [] };
	}
	for (split /\n/, slurp("$d/splats.tsv") // '') {
		my ($test, $line) = split /\t/, $_, 2;
		push @{$r{$test}{splats}}, $line if $r{$test};
	}
	return \%r;
}
sub tap_results {	# guest-check's TAP of the test programs in the same shape (no splats: the boot's vm.tap has them)
	my (@files) = @_;
	my $t = join("\n", grep { defined } map { slurp($_) } @files);
	return undef if $t eq '';
	my %r;
	for (split /\n/, $t) {
		next unless /^(not )?ok (?:\d+ )?- ([\w-]+)::(\w+)\s*(.*?)\s*(?:\(\d+\.\d+s\))?$/;
		next if $3 eq 'run';	# a program's exit status, not a sub-test
		my ($not, $test, $rest) = ($1, "$2/$3", $4);
		$r{$test} = $not ? { status => 'fail', detail => $rest } :
			$rest =~ /# SKIP (.*)/ ? { status => 'skip', detail => $1 } : { status => 'pass', detail => '' };
	}
	return \%r;
}
# a splat line without what differs between boots: CPU, pid, code offsets
sub splat_kind {
	my ($l) = @_;
	$l =~ s/CPU: \d+ PID: \d+ //;
	$l =~ s{(?:\.\./)*src/[^/]+/}{}g;	# the build's path to its tree
	$l =~ s/\+0x[0-9a-f]+\/0x[0-9a-f]+//g;
	$l =~ s/0x[0-9a-f]{9,}/0x.../g;	# addresses
	$l =~ s/(task \S+?):\d+ /$1 /;
	$l =~ s/ for more than \d+ seconds/ for more than N seconds/;
	return $l;
}
sub md_escape { my ($s) = @_; $s =~ s/\|/\\|/g; return $s }
my %RESULT_WORD = (pass => 'pass', skip => 'skip', fail => '**FAIL**', crashed => '**kernel died**', hung => '**hung**');
sub result_cell {	# the result word and its detail, cut at 240 characters
	my ($r) = @_;
	return 'not run' unless $r;
	my $w = $RESULT_WORD{$r->{status}} // $r->{status};
	my $d = $r->{status} eq 'crashed' ? splat_kind($r->{detail}) : $r->{detail};
	$d = substr($d, 0, 237) . '...' if length($d) > 240;
	return $d ne '' ? "$w: " . md_escape($d) : $w;
}
sub splat_cell {
	my ($r) = @_;
	return '-' unless $r && @{$r->{splats}};
	my (%n, @order);
	for (map { splat_kind($_) } @{$r->{splats}}) { push @order, $_ unless $n{$_}++ }
	return scalar(@{$r->{splats}}) . ': ' . join('; ', map { md_escape($_) . ($n{$_} > 1 ? " (x$n{$_})" : '') } @order);
}
sub count_by_status {
	my ($res) = @_; my %n;
	$n{$_->{status}}++ for values %$res;
	return join(', ', map { "$n{$_} $_" } grep { $n{$_} } qw(pass fail skip crashed hung));
}
# What a group of tests that fail or splat on the RFC as posted says about
# it, from what those tests measured on iouring-rfc-debug (2026-12-04); a
# group is shown only when one of its tests fails or splats. Each pattern
# is matched against "suite/test<TAB>failure", in this order; a test that no
# group takes is listed as such, with no reading.
my @RFC_GROUPS = (
	[qr{/exec_with_personality_is_einval\t}, 'EXEC with a personality',
	 'the RFC kernel hits the BUG() in commit_creds() (kernel/cred.c:400: the spawned task runs with the personality\'s overriding credentials) and oopses; this guest boots with oops=panic, so the kernel died. The series refuses a personality on EXEC with -EINVAL.'],
	[qr{/requests_completing_later_are_refused\t}, 'Requests that complete later in a chain',
	 'in the test\'s first chain (CLONE, LINK_TIMEOUT, EXEC) the spawned task issues the LINK_TIMEOUT as an ordinary request (WARNING in io_no_issue), then the kernel uses freed memory (KASAN slab-use-after-free) and dies (general protection fault); the test\'s other chains (TIMEOUT, POLL_ADD, ASYNC_CANCEL after CLONE) did not run. The series refuses every such request at CLONE.'],
	[qr{/failed_setuid_exec_runs_nothing_after\t.*MKDIRAT ran}, 'Set-uid EXEC failing past its point of no return',
	 'as uid 1000, the chain CLONE, EXEC of a set-uid root program made to fail after exec committed its credentials, MKDIRAT created a directory that only root may create: on the RFC the rest of the chain runs as root, a local root hole. The series ends the chain after such a failure.'],
	[qr{/sigkill_stops_chain\t.*a request ran after SIGKILL}, 'SIGKILL during the chain',
	 'after SIGKILL to the spawned task while its OPENAT blocked, the next linked request still ran. The series cancels the rest of the chain on a fatal signal.'],
	[qr{/(?:ring_usable_while_chain_blocks|submitter_execve_while_chain_blocks|no_lockdep_after_chain_then_execve)\t}, 'The chain under uring_lock',
	 'the RFC runs the whole chain holding the ring\'s uring_lock: a NOP from a second thread got no completion while the chain blocked; a submitter calling execve() slept in D state and SIGKILL did not end it; lockdep reported a possible circular locking dependency (uring_lock against exec\'s cred_guard_mutex) during submitter_execve_while_chain_blocks. no_lockdep_after_chain_then_execve stopped at its spawn, which needs the pid, before its own lockdep check.'],
	[qr{/(?:clone_refused_in_sqpoll|clone_async_refused_\w+|clone_with_personality_is_einval)\t}, 'CLONE from io-wq or SQPOLL, or with a personality',
	 'the RFC accepts the CLONE and runs the EXEC (CLONE 0, EXEC 0, a child left behind), where the series refuses the CLONE with -EINVAL: the child would be a copy of the io-wq worker or SQPOLL thread, or run with the personality\'s credentials (docs/iouring.md, "Hazards"; what the child inherits is not measured here). On a DEFER_TASKRUN ring the RFC also posts the EXEC\'s completion before the CLONE\'s and trips a lockdep assertion (a completion posted by a task other than the ring\'s submitter, io_uring/io_uring.h:138), as in mode_defer_taskrun.'],
	[qr{/clone_refused_when_tracer_follows_forks\t}, 'A tracer that follows forks',
	 'under PTRACE_O_TRACEFORK, TRACEVFORK or TRACECLONE the RFC ran the program, where the series refuses the CLONE with -EPERM (the spawned task is not reported to the tracer: docs/iouring.md, "Hazards").'],
	[qr{/pidfd\w*\t}, 'IORING_CLONE_PIDFD',
	 'the RFC has no IORING_CLONE_PIDFD: a CLONE asking for a pidfd is refused with -EINVAL (-22).'],
	[qr{/ring_closed_after_spawn\t.*No child processes}, 'Waiting for the child',
	 'the RFC\'s child has exit signal 0: plain waitpid() does not see it (ECHILD), only __WALL does. The series\' child sends SIGCHLD.'],
	[qr{\t(?:CLONE: 0|spawn 0: 0 0)$}, 'No pid in the CLONE completion',
	 'the RFC completes CLONE with 0, not the child\'s pid, and these tests stop at that first check: what each is named after (seccomp, audit, the fork tracepoint, chain semantics, PATH search, DEFER_TASKRUN wake-ups) is not measured on the RFC by them, neither as a failure nor as a pass. mode_defer_taskrun also trips the lockdep assertion above.'],
);
my @rfc_findings;
my ($rfc_results, $rfc_series_results);	# for the brief
if (my $rfc = by_test("$dir/abi/iouring-rfc-debug")) {
	my $rinfo = keyvals("$dir/abi/iouring-rfc-debug/kernel");
	my ($series, $series_from);
	if ($series = by_test("$dir/abi/iouring-debug")) {
		$series_from = 'the same one-test-a-boot run in the iouring-debug kernel (`abi/iouring-debug/`)';
	} else {
		# each series alone (make check-series), else make check's kernel with both
		for my $place (qw(iouring-debug combined-debug)) {
			$series = tap_results(map { "$dir/results/$place/$_.tap" } split ' ', $rinfo->{program}) or next;
			my $vm = slurp("$dir/results/$place/vm.tap") // '';
			my $sinfo = keyvals("$dir/results/$place/kernel");
			$series_from = "the $place run of `make check" . ($place eq 'iouring-debug' ? '-series' : '') . "` ($sinfo->{patches} patches, tree $sinfo->{head}; all tests in one boot, " .
				($vm =~ /^ok /m ? 'which had no kernel splat' : $vm =~ /^not ok /m ? "**which failed: a kernel splat, crash or timeout (results/$place/vm.tap)**" : 'whose boot result is missing') . ')';
			last;
		}
	}
	($rfc_results, $rfc_series_results) = ($rfc, $series);
	my %all = map { $_ => 1 } keys %$rfc, keys %{$series // {}};
	my @tests = sort keys %all;
	my @splatted = grep { $rfc->{$_} && @{$rfc->{$_}{splats}} } @tests;
	my $lines = 0; $lines += @{$rfc->{$_}{splats}} for @splatted;
	my $boot_splats = slurp("$dir/abi/iouring-rfc-debug/splats.tsv") // '';
	out("## The RFC as posted\n\n",
	    "The io_uring ABI tests (`$rinfo->{program}`, ", scalar(keys %$rfc), " tests) on the kernel with only the RFC's own patches ",
	    "(`iouring-rfc`: the $rinfo->{patches} patches of series-iouring-rfc, none of the series' fixes; tree $rinfo->{head}), ",
	    "debug flavour (lockdep, KASAN, list and object debugging), under $rinfo->{accelerator}. ",
	    "vm/by-test runs one test at a time and boots a fresh kernel after a test during which the kernel splatted, died or hung, ",
	    "so every splat below came while that test ran, in a kernel that had not splatted before ($rinfo->{boots} boots, $rinfo->{seconds} s). ",
	    "The tests are compiled against the series' uapi; the RFC has no `IORING_CLONE_PIDFD` and no `clone_flags` field, and a test that uses them shows what the RFC kernel does with them. ",
	    "A skip is not a pass.\n\n");
	out("- RFC as posted: ", count_by_status($rfc), "; kernel splats during ", scalar(@splatted), " tests ($lines console lines).\n");
	out("- Series: ", $series ? count_by_status($series) . ", from $series_from" : 'no results (no iouring-debug or combined-debug TAP, and no one-test-a-boot run of vm/report)', ".\n");
	out("- Splats while the RFC kernel booted, before any test: ", scalar(grep { /^boot\t/ } split /\n/, $boot_splats), ".\n\n");
	table(['test', 'RFC as posted', 'splats on the RFC (console lines: kinds)', 'series'],
		map { [$_, result_cell($rfc->{$_}), splat_cell($rfc->{$_}), result_cell($series ? $series->{$_} : undef)] } @tests);
	my @bad = grep { $rfc->{$_} && ($rfc->{$_}{status} ne 'pass' || @{$rfc->{$_}{splats}}) } @tests;
	my %said;
	my @means;
	for my $g (@RFC_GROUPS) {
		my ($re, $name, $what) = @$g;
		my @in = grep { !$said{$_} && "$_\t$rfc->{$_}{detail}" =~ $re } @bad;
		$said{$_} = 1 for @in;
		push @means, "**$name** (" . join(', ', map { s{^[\w-]+/}{}r } @in) . "): $what" if @in;
	}
	my @other = grep { !$said{$_} } @bad;
	push @means, "**Other** (" . join(', ', map { s{^[\w-]+/}{}r } @other) . "): no reading is kept for these; the table has each one's failure or splat." if @other;
	out("What the failures and splats mean:\n\n", map { "- $_\n" } @means) if @means;
	my @rfc_only = grep { $series && $series->{$_} && $series->{$_}{status} ne 'pass' && $rfc->{$_} && $rfc->{$_}{status} eq 'pass' } @tests;
	out("\nTests the RFC as posted passes and the series does not: ", join(', ', map { "`$_`" } @rfc_only), ".\n") if @rfc_only;
	out("\n");
	push @rfc_findings, "The RFC as posted (its own patches, debug kernel), io_uring ABI tests one at a time: " . count_by_status($rfc) .
		"; kernel splats during " . scalar(@splatted) . " tests" . ($series ? "; the series: " . count_by_status($series) : '') . " (section \"The RFC as posted\").";
} elsif (-e "$dir/kernels/iouring-rfc" || -d "$dir/abi") {
	out("## The RFC as posted\n\nThe io_uring ABI tests did not run on the RFC's kernel (no `abi/iouring-rfc-debug/results.tsv`; see vm/report's output).\n\n");
	push @rfc_findings, "The RFC as posted was not measured: its ABI test run is missing.";
}

# --- expressiveness ---------------------------------------------------------------------------
out("## Expressiveness\n\n");
my (@caps_cols, @caps);
if (my $t = slurp("$dir/caps.tsv")) {
	my @lines = split /\n/, $t;
	@caps_cols = split /\t/, shift @lines;
	@caps = map { [split /\t/] } @lines;
	my %label = (posix => 'glibc posix_spawn (posix)', vfork => 'vfork + own code (vfork, reference)');
	out("What each libcompat backend can express (its capability query, `compat_backend_has()`); ",
	    "`posix` is glibc 2.36's posix_spawn with its _np extensions.\n\n");
	table([map { $label{$_} // $_ } @caps_cols], map { [map { $_ eq 'no' ? '**no**' : $_ } @$_] } @caps);
	for my $s (@SERIES) {
		out("Backend `$s` is not in libcompat yet: its column is missing.\n\n") unless grep { $_ eq $s } @caps_cols;
	}
}
sub cannot {	# features a backend lacks
	my ($b) = @_; my ($i) = grep { $caps_cols[$_] eq $b } 0 .. $#caps_cols;
	return undef unless defined $i;
	return [map { $_->[0] } grep { $_->[$i] eq 'no' } @caps];
}

# --- real clients ----------------------------------------------------------------------------
# run-clients' TAP (results/PLACE/clients-RUN.tap; docs/clients.md, "Real
# clients"): per place, client and run (plain glibc, or the shim in strict
# mode on a backend) the verdict and the comment lines "# MODE: made=N
# routed=N refused=N fallback=N exit=N outputs=S seconds=S KIND=N...", MODE
# "plain glibc", "strict" or "fallback" (the run made when the backend
# refused a call).
sub client_runs {	# [place, run, [ {name, result, detail, plain glibc|strict|fallback => {key => value}} ]]
	my @out;
	for my $tap (sort split /\n/, `find "$dir/results" -mindepth 2 -maxdepth 2 -name 'clients-*.tap' 2>/dev/null`) {
		my ($place, $run) = $tap =~ m{([^/]+)/clients-([^/]+)\.tap$} or next;
		my (@tests, $t);
		for (split /\n/, slurp($tap) // '') {
			if (/^(not )?ok \d+ - clients::(\S+)\s*(.*)$/) {
				my ($fail, $name, $rest) = ($1, $2, $3);
				my ($result, $detail) = $rest =~ /^# SKIP (.*)/ ? ('unsupported', $1) :
					$fail && $rest =~ /# TODO diverges: (.*)/ ? ('diverges', $1) :
					$fail ? ('FAIL', $rest =~ s/^\((.*)\)$/$1/r) : ('pass', '');
				push @tests, $t = { name => $name, result => $result, detail => $detail };
			} elsif ($t && /^# (plain glibc|strict|fallback): (.*)/) {
				my ($mode, $fields) = ($1, $2);
				$t->{$mode} = { $fields =~ /(\S+)=(\S+)/g };
			}
		}
		push @out, [$place, $run, \@tests];
	}
	return @out;
}
my @client_runs = client_runs();
my @client_findings;
out("## Real clients\n\n");
if (@client_runs) {
	out("Programs that really spawn, under the posix_spawn shim (`run-clients`; docs/clients.md): ",
	    "glibc 2.36's own posix_spawn tests, GNU make `-j4` on 200 targets of 3 recipe lines, ninja on 40 edges and ",
	    "CPython's posix_spawn tests, first under plain glibc (the control), then in strict mode on each backend: ",
	    "a spawn the backend cannot express fails with ENOTSUP and is counted as refused, and the client is run ",
	    "once more in fallback mode (glibc runs what the backend refuses) to count how many of its spawns the ",
	    "backend can express. *made*: the spawns the client makes (derived from its input or pinned from its ",
	    "source, never from the counts); *routed*, *refused*, *fallen back*: the shim's counts in strict mode; ",
	    "*routed in fallback mode*: what the backend expressed of the whole run; *asked for*: the actions the ",
	    "spawns became, summed (make's `dup2` is its stdin hand-off between jobs, and varies from run to run); ",
	    "*time*: the run's wall clock in its place, plain glibc's in the same place and the ratio (passing ",
	    "runs only).\n\n");
	my %plain;	# place, client => seconds
	for my $cr (grep { $_->[1] eq 'glibc' } @client_runs) {
		$plain{$cr->[0], $_->{name}} = ($_->{'plain glibc'} // {})->{seconds} for @{$cr->[2]};
	}
	my (@rows, @control_failed);
	for my $cr (@client_runs) {
		my ($place, $run, $tests) = @$cr;
		if ($run eq 'glibc') {
			push @control_failed, map { "$place: $_->{name} ($_->{result}: $_->{detail})" } grep { $_->{result} ne 'pass' } @$tests;
			next;
		}
		for my $t (@$tests) {
			my $s = $t->{strict} // {};
			my $fb = $t->{fallback};
			my $asked = $fb // $s;
			my @kinds = map { "$_ $asked->{$_}" } grep { !/^(made|routed|refused|fallback|exit|outputs|seconds)$/ } sort keys %$asked;
			my $p = $plain{$place, $t->{name}};
			push @rows, [$place, $t->{name}, $run, $s->{made}, $s->{routed}, $s->{refused}, $s->{fallback},
				$fb ? "$fb->{routed} of $fb->{made}" : '-',
				md_escape($t->{result} eq 'pass' ? 'pass' : $t->{detail} ne '' ? "$t->{result}: $t->{detail}" : $t->{result}),
				join(', ', @kinds) || '-', $s->{seconds}, $p,
				$t->{result} eq 'pass' ? ratio($s->{seconds}, $p) : '-'];
		}
	}
	table(['place', 'client', 'backend', 'made', 'routed', 'refused', 'fallen back', 'routed in fallback mode',
	       'result', 'asked for', 'time s', 'plain glibc s', 'ratio'], @rows);
	out("The control did not pass: " . join('; ', map { md_escape($_) } @control_failed) . ".\n\n") if @control_failed;
	# which backend serves which client: per place, the clients whose every
	# spawn it routed in strict mode, and those it refused
	for my $cr (grep { $_->[1] ne 'glibc' } @client_runs) {
		my ($place, $run, $tests) = @$cr;
		# a client that makes no spawn (tst-posix_spawn-fd) proves nothing here
		my @spawning = grep { ($_->{strict}{made} // 0) > 0 } @$tests;
		my @served = grep { $_->{result} eq 'pass' } @spawning;
		my @refused = grep { $_->{result} eq 'unsupported' && $_->{fallback} } @$tests;
		my @failed = grep { $_->{result} eq 'FAIL' } @$tests;
		push @client_findings, sprintf("Real clients in %s on `%s`, strict mode: %d of the %d that spawn served (every spawn routed, results as plain glibc's)%s%s.",
			$place, $run, scalar(@served), scalar(@spawning),
			@refused ? '; refused: ' . join(', ', map { "$_->{name} ($_->{fallback}{routed} of $_->{fallback}{made} spawns expressible)" } @refused) : '',
			@failed ? '; **failed**: ' . join(', ', map { $_->{name} } @failed) : '');
	}
} else {
	out("No real-client results (no `clients-*.tap` under results/: `run-clients` did not run).\n\n");
}

# GNU make end to end (vm/report: run-clients --time-make in the combined
# release kernel): make-time/CONFIG/make-time.tsv, CONFIG wall-smp1,
# wall-smp2, icount-smp1; per run, the median of its rounds and the ratio
# to plain glibc's median in the same boot.
my @make_configs = grep { -f "$dir/make-time/$_/make-time.tsv" } qw(wall-smp1 wall-smp2 icount-smp1);
if (@make_configs) {
	my %label = ('wall-smp1' => 'wall clock, 1 vCPU', 'wall-smp2' => 'wall clock, 2 vCPUs', 'icount-smp1' => 'icount, 1 vCPU');
	my (@rows, $rounds);
	for my $c (@make_configs) {
		my @all = tsv_rows("$dir/make-time/$c/make-time.tsv");
		my (%secs, %bad, @runs);
		for my $r (@all) {
			push @runs, $r->{run} unless exists $secs{$r->{run}};
			$rounds = $r->{round} if !defined $rounds || $r->{round} > $rounds;
			# plain glibc: exit 0; a backend: exit 0, outputs the same,
			# every call routed (none refused or gone around the shim)
			if ($r->{exit} eq '0' && ($r->{run} eq 'glibc' ||
			    ($r->{outputs} eq 'same' && $r->{refused} eq '0' && $r->{routed} eq $r->{made}))) {
				push @{$secs{$r->{run}}}, $r->{seconds};
			} else {
				$secs{$r->{run}} //= [];
				$bad{$r->{run}} = $r->{refused} ne '-' && $r->{refused} > 0 ? "refused ($r->{refused} of its calls)" :
					"failed (exit $r->{exit}, outputs $r->{outputs}, routed $r->{routed} of $r->{made})";
			}
		}
		my @g = @{$secs{glibc} // []};
		my $gm = @g ? median_of(@g) : undef;
		for my $run (@runs) {
			my @v = @{$secs{$run}};
			my $who = $run eq 'glibc' ? 'plain glibc' : "shim on `$run`";
			if ($bad{$run} || !@v) {
				push @rows, [$label{$c}, $who, $bad{$run} // 'no run', '-', '-', '-'];
				next;
			}
			my $m = median_of(@v);
			push @rows, [$label{$c}, $who, 'pass',
				sprintf('%.2f', $m), sprintf('%.2f-%.2f', (sort { $a <=> $b } @v)[0, -1]),
				$run eq 'glibc' ? '1.00' : ratio($m, $gm)];
		}
		push @client_findings, sprintf("GNU make's build (%s, combined release kernel): %s.", $label{$c},
			join('; ', map { my $v = $secs{$_}; $bad{$_} ? "`$_` $bad{$_}" : @$v ? "`$_` " . ratio(median_of(@$v), $gm) . 'x plain glibc' : () }
				grep { $_ ne 'glibc' } @runs)) if defined $gm;
	}
	out("### GNU make end to end\n\n",
	    "`make -j4` on run-clients' generated build (200 targets of 3 recipe lines, 600 posix_spawn calls), in one boot of the ",
	    "combined release kernel per configuration: plain glibc, then the shim in strict mode on each backend, interleaved, ",
	    "$rounds rounds (`MAKE_TIME_REPS`); the time of a build is the guest's clock (/proc/uptime; under icount it counts ",
	    "instructions, so it repeats). A build counts when it exits 0, its outputs equal that round's plain glibc build's and the ",
	    "shim routed every call to the backend. Median and range of the rounds; ratio: the median over plain glibc's in the same boot.\n\n");
	table(['configuration', 'run', 'result', 'median s', 'range s', 'ratio to plain glibc'], @rows);
}

# --- cost of the kernel change ---------------------------------------------------------------------
# From the patch files alone (bench/SeriesCost.pm), so that the RFC as posted,
# a series never built and a prefix of a series are counted the same way.
sub subsystem {	# the per-series table's rows: fork.c and exec.c apart, the rest by folder
	my ($f) = @_;
	return 'uapi headers' if SeriesCost::uapi_file($f);
	return 'internal headers' if $f =~ m{^include/};
	return 'selftests' if $f =~ m{^tools/testing/};
	return 'io_uring' if $f =~ m{^io_uring/};
	return 'kernel/fork.c' if $f eq 'kernel/fork.c';
	return 'fs/exec.c' if $f eq 'fs/exec.c';
	return "$1/" if $f =~ m{^([^/]+)/};
	return $f;
}
my @COST_SERIES = ('iouring-rfc', @SERIES);
my %series_of = map { $_ => SeriesCost::load("$top/series-$_") } @COST_SERIES;	# undef: no series-NAME/series
my %cost = map { $_ => $series_of{$_} ? SeriesCost::cost($series_of{$_}) : undef } @COST_SERIES;
sub uapi_items {	# a series' new uapi symbols, members grouped by their struct
	my ($c) = @_;
	my (%fields, @plain);
	for (@{$c->{uapi}}) {
		if (/^member (\w+)\.(.+)$/) { push @{$fields{$1}}, $2 }
		else { push @plain, s/^(?:macro|member) //r }
	}
	my %new_type = map { $_ => 1 } grep { /^(?:struct|union) / } @plain;
	return ((map { "`$_`" } grep { !(/^(?:struct|union) (\w+)$/ && $fields{$1}) } @plain),
		map { ($new_type{"struct $_"} || $new_type{"union $_"} ? "new `struct $_` {" : "`struct $_` gains {") .
			join(', ', @{$fields{$_}}) . '}' } sort keys %fields);
}
out("## Cost of each kernel change\n\n",
    "Counted from each series' patch files (`series-NAME/`): lines added and removed per patch, file and subsystem. ",
    "The kernel part is every file but tools/ (selftests) and Documentation/; its subsystems are top-level folders ",
    "(two levels under drivers/). New uapi symbols: the macros, enum constants, types and members that the patches ",
    "add to include/uapi headers and do not remove again; new system calls: the entries they add to the syscall tables.\n\n");
for my $s (@COST_SERIES) {
	my $c = $cost{$s};
	out("### series-$s\n\n");
	unless ($c) { out("No `series-$s/series`: not measured.\n\n"); next }
	unless ($c->{patches}) { out("No patches yet (an empty series: this kernel is the base).\n\n"); next }
	my @subs = sort keys %{$c->{subsystems}};
	out("$c->{patches} patches, ", scalar(keys %{$c->{files}}), " files, +$c->{add} / -$c->{del} lines; the kernel part: ",
	    "$c->{kfiles} files in ", scalar(@subs), " subsystems (", join(', ', @subs), "), +$c->{kadd} / -$c->{kdel}.\n\n");
	table(['patch', '+', '-'], map { [$_->[1], $_->[2], $_->[3]] } @{$c->{each}});
	my %sub;
	for my $f (keys %{$c->{files}}) { my $x = subsystem($f); $sub{$x}{add} += $c->{files}{$f}{add} // 0; $sub{$x}{del} += $c->{files}{$f}{del} // 0 }
	table(['subsystem', '+', '-'], map { [$_, $sub{$_}{add} // 0, $sub{$_}{del} // 0] } sort { ($sub{$b}{add} // 0) <=> ($sub{$a}{add} // 0) || $a cmp $b } keys %sub);
	table(['file', '+', '-'], map { ["`$_`", $c->{files}{$_}{add} // 0, $c->{files}{$_}{del} // 0] } sort keys %{$c->{files}});
	my @items = uapi_items($c);
	out("New uapi symbols (", scalar(@{$c->{uapi}}), "): ", @items ? "\n\n" . join('', map { "- $_\n" } @items) . "\n" : "none.\n\n");
	out("New system calls: ", @{$c->{syscalls}} ? join(', ', map { "`$_`" } @{$c->{syscalls}}) : 'none', ". ",
	    "New io_uring opcodes: ", @{$c->{opcodes}} ? join(', ', map { "`$_`" } @{$c->{opcodes}}) : 'none', ".\n\n");
	out("New `EXPORT_SYMBOL`s: ", @{$c->{exports}} ? join(', ', map { "`$_`" } @{$c->{exports}}) : 'none',
	    @{$c->{unexports}} ? '; removed: ' . join(', ', map { "`$_`" } @{$c->{unexports}}) : '', ".\n\n");
}
{
	my (%by_file, %by_export);
	for my $s (@SERIES) {
		my $c = $cost{$s} or next;
		push @{$by_file{$_}}, $s for keys %{$c->{files}};
		push @{$by_export{(split / /)[0]}}, $s for @{$c->{exports}};
	}
	my @f = grep { @{$by_file{$_}} > 1 } sort keys %by_file;
	my @e = grep { @{$by_export{$_}} > 1 } sort keys %by_export;
	out("### Overlap of the series\n\n",
	    "Files more than one series changes: ", @f ? join(', ', map { "`$_` (" . join(', ', @{$by_file{$_}}) . ")" } @f) : 'none', ". ",
	    "Symbols more than one exports: ", @e ? join(', ', map { "`$_`" } @e) : 'none', ".\n\n");
}

# --- issue 24's price of parity ----------------------------------------------------------------------
# series-iouring as the RFC posted it, with its fixes (the patches before the
# first that is new in the revision that added the parity operations) and at
# parity (all of them), beside the other designs counted the same way, with
# the speed of each raw method on a make-like request (spawnbench's make-like
# cell) against clone-actions-raw with the same request in the same boot.
my $PARITY_REVISION = 'v3';	# series-iouring's revision that added them (its cover letter)
my $MAKE_LIKE = 'make-like';	# the cell: RESETIDS, two dup2 and a signal mask per spawn
my @MAKE_LIKE_NEEDS = qw(IORING_OP_DUP IORING_OP_RESETIDS IORING_CLONE_SIGMASK);	# io_uring's ops for it
my @parity;	# [what, cost, raw method, what in short]
my $make_like_run = (grep { $run{$_}{rows}{$MAKE_LIKE} } grep { defined } $icount1, sort keys %run)[0];
sub make_like_ratio {	# a raw method's make-like spawn over clone-actions-raw's, to first instruction
	my ($m) = @_;
	return undef unless $make_like_run && $m;
	my $r = $run{$make_like_run};
	my $param = $r->{order}{$MAKE_LIKE}[0];
	my ($a, $b) = (val($r, $MAKE_LIKE, $param, $m, 'first'), val($r, $MAKE_LIKE, $param, 'clone-actions-raw', 'first'));
	return defined $a && defined $b && $b > 0 ? [$a / $b, $a, $b] : undef;
}
if (my $io = $series_of{iouring}) {
	my @new = SeriesCost::new_in($io, $PARITY_REVISION);
	my $n = @{$io->{patches}};
	my $fixed = @new ? $new[0] : $n;
	push @parity, ['the RFC as posted (series-iouring-rfc)', $cost{'iouring-rfc'}, undef, 'as posted'] if $cost{'iouring-rfc'};
	push @parity, ["with its fixes (series-iouring 1-$fixed)", SeriesCost::cost($io, $fixed), 'iouring-raw', 'with its fixes'];
	push @parity, ["at parity (series-iouring 1-$n)", $cost{iouring}, 'iouring-raw', 'at parity'] if @new;
	my @cmp = map { ["series-$_, for comparison", $cost{$_}, "$_-raw"] } grep { $cost{$_} } qw(clone-actions builder);
	out("## Price of parity\n\n",
	    "What series-iouring costs as the RFC posted it, with the fixes review asked for, and with the operations a ",
	    "posix_spawn() needs (the patches whose notes say \"New in $PARITY_REVISION\": ", scalar(@new), " of $n), counted from the patches ",
	    "as in [Cost of each kernel change](#cost-of-each-kernel-change), and the other designs counted the same way. ",
	    "Speed: the raw method with a make-like request (RESETIDS, two dup2 and a signal mask, what GNU make asks for with ",
	    "each recipe line) over clone-actions-raw with the same request, to the child's first instruction, in one boot",
	    $make_like_run ? " (run $make_like_run)" : '', ".\n\n");
	my @rows;
	for my $p (@parity, @cmp) {
		my ($what, $c, $m) = @$p;
		my %has = map { s/^macro //r => 1 } @{$c->{uapi}};
		my @lack = $m && $m eq 'iouring-raw' ? grep { !$has{$_} } @MAKE_LIKE_NEEDS : ();
		my $x = make_like_ratio($m);
		push @rows, [$what, $c->{patches}, "+$c->{kadd} / -$c->{kdel}", scalar(@{$c->{opcodes}}), scalar(@{$c->{syscalls}}),
			scalar(@{$c->{uapi}}),
			!$m ? 'no raw method' : @lack ? 'cannot express it (no ' . join(', ', @lack) . ')' :
			$m eq 'clone-actions-raw' && $x ? '1 (the reference)' :
			$x ? sprintf('%.3f (%.0f / %.0f)', @$x) : 'not measured'];
	}
	table(['', 'patches', 'kernel lines', 'new opcodes', 'new syscalls', 'new uapi symbols', 'make-like spawn / clone-actions-raw'], @rows);
	for my $i (1 .. $#parity) {
		my %before = map { $_ => 1 } @{$parity[$i - 1][1]{uapi}};
		my @added = grep { !$before{$_} } @{$parity[$i][1]{uapi}};
		out("- $parity[$i][0] over $parity[$i - 1][3]: +", $parity[$i][1]{kadd} - $parity[$i - 1][1]{kadd},
		    " kernel lines, uapi ", @added ? join(', ', map { '`' . s/^(?:macro|member) //r . '`' } @added) : 'unchanged', ".\n");
	}
	out("\n") if @parity > 1;
	out("The patches new in $PARITY_REVISION do not all come after the others; the rows count the first $fixed patches, then all.\n\n")
		if @new && $new[-1] - $new[0] + 1 != @new;
	out("The make-like request was not measured: ", $make_like_run ? "run $make_like_run has no such spawn of `iouring-raw` or `clone-actions-raw`"
		: "no benchmark run has spawnbench's `$MAKE_LIKE` cell", ".\n\n") unless grep { $_->[-1] =~ /^\d/ } @rows;
}

# --- upstream readiness ---------------------------------------------------------------------------------
# scripts/checkpatch.pl --strict on each patch (checkpatch/SERIES/PATCH.txt,
# vm/report), each patch built on its own (perpatch/SERIES.tsv, from
# vm/build-each-patch's walk), and whether later patches rework earlier ones.
sub checkpatch_of {	# [[patch, errors, warnings, checks]...] (undef counts: no result), or undef
	my ($s) = @_;
	my $ser = $series_of{$s} or return undef;
	return undef unless -d "$dir/checkpatch/$s";
	return [map {
		my $t = slurp("$dir/checkpatch/$s/" . ($_->{file} =~ s/\.patch$//r) . '.txt') // '';
		[$_, $t =~ /^total: (\d+) errors?, (\d+) warnings?, (?:(\d+) checks?, )?/m];
	} @{$ser->{patches}}];
}
sub perpatch_of {	# { patch file => result }, or undef
	my ($s) = @_;
	my $t = slurp("$dir/perpatch/$s.tsv") // return undef;
	return { map { my @f = split /\t/; ($f[0] => $f[2] // 'not built') } grep { /\t/ } split /\n/, $t };
}
my %ready;	# series -> { checkpatch => [clean, of, e, w, c], built => [ok, failed, of], fixups, rewritten }
out("## Upstream readiness\n\n",
    "Per series: `scripts/checkpatch.pl --strict` on each patch (in the base tree, as vm/report runs it), each patch built ",
    "on its own with the release configuration (`vm/build-each-patch`, the last walk of the commits that the patches ",
    "are now), and whether later patches rework earlier ones: fix-ups (a subject `fixup!`/`squash!`, a `Fixes:` tag ",
    "naming a patch of the series) and lines that a patch removes after an earlier patch of the series added them.\n\n");
{
	my (@rows, @notes);
	for my $s (@COST_SERIES) {
		my $ser = $series_of{$s} or next;
		my $n = @{$ser->{patches}};
		my $r = $ready{$s} = { fixups => scalar(@{$cost{$s}{fixups}}), rewritten => $cost{$s}{rewritten} };
		my ($cp, $pp) = (checkpatch_of($s), perpatch_of($s));
		my ($cp_cell, $pp_cell) = ('not measured', 'not measured');
		if ($cp) {
			my @got = grep { defined $_->[1] } @$cp;
			my @clean = grep { $_->[1] + $_->[2] + ($_->[3] // 0) == 0 } @got;
			my @t = (0, 0, 0);
			for my $x (@got) { $t[$_ - 1] += $x->[$_] // 0 for 1 .. 3 }
			$r->{checkpatch} = [scalar(@clean), scalar(@got), @t] if @got;
			$cp_cell = "@{[scalar @clean]} of $n clean; " . join(', ', n_of($t[0], 'error'), n_of($t[1], 'warning'), n_of($t[2], 'check')) .
				(@got < $n ? '; no result for ' . ($n - @got) : '');
			push @notes, map { my $f = $_->[0]{file} =~ s/\.patch$/.txt/r;
				"series-$s `$_->[0]{file}`: checkpatch " . (defined $_->[1] ? join(', ', map { n_of($_->[0], $_->[1]) } grep { $_->[0] }
					[$_->[1], 'error'], [$_->[2], 'warning'], [$_->[3] // 0, 'check']) . " (`checkpatch/$s/$f`)" : 'gave no result') }
				grep { !defined $_->[1] || $_->[1] + $_->[2] + ($_->[3] // 0) > 0 } @$cp;
		}
		if ($pp) {
			my @res = map { $pp->{$_->{file}} // 'not built' } @{$ser->{patches}};
			my $ok = grep { $_ eq 'ok' } @res;
			my $failed = grep { /^FAIL/ } @res;
			$r->{built} = [$ok, $failed, $n];
			$pp_cell = "$ok of $n ok" . ($failed ? ", $failed failed" : '') . ($n - $ok - $failed ? ', ' . ($n - $ok - $failed) . ' not built' : '');
			push @notes, map { "series-$s `$ser->{patches}[$_]{file}`: built alone, " . md_escape($res[$_]) } grep { $res[$_] =~ /^FAIL/ } 0 .. $#res;
			my @unbuilt = grep { $res[$_] !~ /^(?:ok|FAIL)/ } 0 .. $#res;
			push @notes, "series-$s: " . n_of(scalar @unbuilt, 'patch') . " not built alone (from `$ser->{patches}[$unbuilt[0]]{file}`)" if @unbuilt;
		}
		push @rows, ["series-$s", $n, $cp_cell, $pp_cell, $r->{fixups},
			"$r->{rewritten}" . (@{$cost{$s}{rewriting}} ? ' in ' . n_of(scalar @{$cost{$s}{rewriting}}, 'patch') : '')];
		push @notes, map { "series-$s `$_->[0]` rewrites " . n_of($_->[4], 'line') . " that earlier patches added" } grep { $_->[4] } @{$cost{$s}{each}};
		push @notes, map { "series-$s \"$_\" fixes an earlier patch" } @{$cost{$s}{fixups}};
	}
	table(['series', 'patches', 'checkpatch --strict', 'each patch built alone', 'fix-ups', 'lines rewritten'], @rows);
	out(map { "- $_\n" } @notes);
	out("\n") if @notes;
}

# --- benchmark tables ------------------------------------------------------------------------------
my @sweeps = (['memory', 'parent memory'], ['path', 'failing PATH entries before the hit (0: absolute path)'],
	['env', 'environment'], ['dup2', 'dup2 actions (onto fds 0-2)'],
	['make-like', 'GNU make\'s request: RESETIDS, dup2 onto fds 1 and 2, a signal mask']);

sub run_title {
	my ($n) = @_; my $m = $run{$n}{meta};
	return ($m->{place} // '') eq 'host' ? "$n (the host's own kernel $run{$n}{hdr}{kernel}, user-space methods)"
		: "$n (kernel $m->{series}-$m->{flavour}, " . ($m->{clock} eq 'icount' ? 'QEMU -icount: 1 ns = 1 guest instruction' : "wall clock, $m->{accel}") . ")";
}
sub fmt_cell {
	my ($r, $cell, $param, $method, $metric) = @_;
	my $v = val($r, $cell, $param, $method, $metric);
	if (!defined $v) {
		my $st = status($r, $cell, $param, $method, $metric);
		return $st =~ /^unsupported/ ? 'unsupported' : $st =~ /^unavailable/ ? 'n/a' : $st =~ /^error/ ? '**error**' : '-';
	}
	my $b = val($r, $cell, $param, $BASELINE, $metric);
	return us($v) . (defined $b && $method ne $BASELINE ? ' (' . ratio($v, $b) . ')' : '');
}
# the spawns that failed in a run, per method: "cell param: status"
sub run_errors {
	my ($r) = @_; my %e;
	for my $cell (sort keys %{$r->{rows}}) { for my $param (sort keys %{$r->{rows}{$cell}}) { for my $m (keys %{$r->{rows}{$cell}{$param}}) {
		for my $metric (qw(first spawns_per_s parent_ns)) {
			my $row = $r->{rows}{$cell}{$param}{$m}{$metric} or next;
			push @{$e{$m}}, "$cell $param: " . ($row->{status} =~ s/^error: //r) if $row->{status} =~ /^error/;
		}
	} } }
	return \%e;
}
sub errors_of {
	my ($r) = @_; my $e = run_errors($r);
	for my $m (grep { $e->{$_} } @METHODS, $NO_SPAWN) {
		my @list = @{$e->{$m}};
		out("**$m failed** in ", scalar(@list), " cells: ", join('; ', @list[0 .. ($#list < 3 ? $#list : 3)]), @list > 4 ? '; ...' : '', ".\n\n");
	}
}

# libcompat's cost over the raw call it wraps: [library, raw, first ratio,
# round-trip ratio] for each pair measured in the base cell of run r
sub library_ratios {
	my ($r) = @_; my @l;
	for my $p (@LIBRARY) {
		my ($lib, $raw) = @$p;
		my ($lf, $rf, $lr, $rr) = map { val($r, 'base', '-', @$_) } [$lib, 'first'], [$raw, 'first'], [$lib, 'roundtrip'], [$raw, 'roundtrip'];
		push @l, [$lib, $raw, $lf / $rf, defined $lr && $rr ? $lr / $rr : undef, $lf, $rf] if defined $lf && $rf;
	}
	return @l;
}
sub library_table {
	my ($r) = @_;
	my @l = library_ratios($r) or return;
	out("Library overhead: libcompat's backend over the raw call it wraps, base cell, same run (medians, µs); ",
	    "the target (issue 14) is at most ", pct($LIBRARY_TARGET - 1), " to first instruction:\n\n");
	table(['backend', 'wraps', 'first: library', 'raw', 'ratio', 'round trip: ratio', sprintf('within %.0f %%', 100 * ($LIBRARY_TARGET - 1))],
		map { ["`$_->[0]`", $_->[1], us($_->[4]), us($_->[5]), sprintf('%.3f', $_->[2]), defined $_->[3] ? sprintf('%.3f', $_->[3]) : '-',
			$_->[2] <= $LIBRARY_TARGET ? 'yes' : '**no**'] } @l);
}
# the async cell: methods with a figure or an error in it
sub async_methods {
	my ($r) = @_; my @ks = @{$r->{order}{async} // []};
	return grep { my $m = $_; grep { status($r, 'async', $_, $m, 'parent_ns') !~ /^(un|not run)/ } @ks } @METHODS;
}
# parent_ns of method m over the parent's work alone, and the extra µs per spawn
sub slowdown {
	my ($r, $k, $m) = @_;
	my ($p, $w) = (val($r, 'async', $k, $m, 'parent_ns'), val($r, 'async', $k, $NO_SPAWN, 'parent_ns'));
	return defined $p && $w ? ($p / $w, ($p - $w) / $k) : ();
}
sub async_tables {
	my ($r) = @_;
	my @ks = @{$r->{order}{async} // []} or return;
	my @am = async_methods($r) or return;
	my $rounds = join(', ', map { "$_: " . (val($r, 'async', $_, $BASELINE, 'spawns_per_s', 'n') // '-') } @ks);
	my $cpus = ($r->{meta}{vcpus} // '?') . ' vCPU' . (($r->{meta}{vcpus} // 0) == 1 ? '' : 's');
	out("Asynchronous spawning, spawns per second ($cpus): k spawns before the first reap. `iouring-raw` submits the ",
	    "k CLONE+EXEC chains with one io_uring_enter() and takes the pids from their CQEs afterwards; the others spawn ",
	    "k times back to back; then waitpid for each child. k / (first spawn call to last reap), median over rounds ",
	    "(rounds per k: $rounds); ratio to $BASELINE:\n\n");
	table(['k', @am], map { my $k = $_; [$k, map {
		my $v = val($r, 'async', $k, $_, 'spawns_per_s'); my $b = val($r, 'async', $k, $BASELINE, 'spawns_per_s');
		defined $v ? sprintf('%.0f', $v) . ($_ ne $BASELINE && $b ? ' (' . ratio($v, $b) . ')' : '') : status($r, 'async', $k, $_, 'spawns_per_s');
	} @am] } @ks);
	out("A parent that keeps working ($cpus): between its spawn calls and the reap it does k x ", $r->{hdr}{async_work} // '?',
	    " units of its own work (256 dependent multiply-adds each). The figure is the time from its first spawn call to ",
	    "the end of that work over the same work done alone (`$NO_SPAWN`, median µs given), medians over rounds; in ",
	    "brackets the parent's extra time per spawn, µs:\n\n");
	table(['k', "$NO_SPAWN µs", @am], map { my $k = $_; [$k, us(val($r, 'async', $k, $NO_SPAWN, 'parent_ns')), map {
		my ($x, $extra) = slowdown($r, $k, $_);
		defined $x ? sprintf('%.2fx (+%s)', $x, us($extra)) : status($r, 'async', $k, $_, 'parent_ns');
	} @am] } @ks);
}

sub bench_section {
	my ($n, $level) = @_;
	my $r = $run{$n};
	out("$level ", run_title($n), "\n\n");
	unless ($r->{rows}{base} || $r->{rows}{tput} || $r->{rows}{async}) { out("No results: ", $r->{meta}{status} // 'the run failed', ".\n\n"); return }
	my @ms = methods_of($r);
	my @na = grep { $r->{methods}{$_} ne 'available' } @ms;
	out("Not available here: ", join('; ', map { "$_ ($r->{methods}{$_})" } @na), ".\n\n") if @na;
	goto TPUT unless $r->{rows}{base};
	out("Base cell (small parent, absolute path, empty environment, no actions), µs; ratio = median / median of $BASELINE:\n\n");
	my @rows;
	for my $m (grep { $r->{methods}{$_} eq 'available' } @ms) {
		my @row = ($m);
		for my $metric (qw(first roundtrip)) {
			my $st = status($r, 'base', '-', $m, $metric);
			if ($st ne 'ok') { push @row, $st, '-', '-', '-', '-'; next }
			push @row, val($r, 'base', '-', $m, $metric, 'n'), map({ us(val($r, 'base', '-', $m, $metric, $_)) } qw(min median p90)),
				ratio(val($r, 'base', '-', $m, $metric), val($r, 'base', '-', $BASELINE, $metric));
		}
		push @rows, \@row;
	}
	table(['method', 'n', 'first: min', 'median', 'p90', 'ratio', 'n', 'round trip: min', 'median', 'p90', 'ratio'],
		@rows);
	library_table($r);
	for my $metric (qw(first roundtrip)) {
		out($metric eq 'first' ? "Sweeps, spawn call to the child's first instruction, median µs (ratio to $BASELINE in the same cell):\n\n"
			: "Sweeps, spawn + wait round trip, median µs (ratio):\n\n");
		my @srows;
		for my $sw (@sweeps) {
			my ($cell, $what) = @$sw;
			for my $param (@{$r->{order}{$cell} // []}) {
				push @srows, [$param eq '-' ? $cell : "$cell: $param", map { fmt_cell($r, $cell, $param, $_, $metric) } @ms];
			}
		}
		table(['cell', @ms], @srows);
	}
	TPUT:
	errors_of($r);
	my @trows;
	for my $param (@{$r->{order}{tput} // []}) {
		push @trows, [$param, map {
			my $v = val($r, 'tput', $param, $_, 'spawns_per_s');
			my $b = val($r, 'tput', $param, $BASELINE, 'spawns_per_s');
			defined $v ? sprintf('%.0f', $v) . ($_ ne $BASELINE && $b ? ' (' . ratio($v, $b) . ')' : '')
				: (status($r, 'tput', $param, $_, 'spawns_per_s') =~ /^un/ ? 'n/a' : status($r, 'tput', $param, $_, 'spawns_per_s'));
		} @ms];
	}
	if (@trows) {
		out("Throughput, spawns per second (spawn + wait in a loop; median of $r->{hdr}{tput_reps} runs of $r->{hdr}{tput} spawns per thread; ratio to $BASELINE)",
		    ($r->{meta}{vcpus} // 2) == 1 ? '; this guest has one vCPU, so two threads cannot run in parallel' : "; $r->{meta}{vcpus} vCPUs", ":\n\n");
		table(['threads', @ms], @trows);
	}
	async_tables($r);
}

out("## Benchmarks\n\n");
out("Method: docs/benchmark.md. `first` is the time from the spawn call to the child's first ",
    "instruction (the child, a static program without libc, reads CLOCK_MONOTONIC first thing and sends it back ",
    "on an inherited pipe); `round trip` is spawn + waitpid. Medians; min and p90 for the base cell. ",
    "Ratios divide by vfork+execve measured in the same run and cell (in PATH cells vfork+execve searches with execvpe). ",
    "`vfork`, `iouring`, `clone-actions` and `builder` are libcompat's backends; `iouring-raw`, `clone-actions-raw` and ",
    "`builder-raw` (a builder per spawn) call each series' ABI directly, as a tuned program would: the gap between the two ",
    "is the library's cost; `builder-reuse-raw` commits one builder again for every spawn. ",
    "`n/a`: the kernel or libcompat lacks the method; `unsupported`: the method cannot express the request.\n\n");
my @order = grep { defined } ($icount1, $combined_wall, $combined_wall ? smp2_of($combined_wall) : undef);
for my $n (sort { ($run{$a}{meta}{place} eq 'host') <=> ($run{$b}{meta}{place} eq 'host') || $a cmp $b } grep { $run{$_}{rows}{base} || !$run{$_}{rows}{tput} } keys %run) {
	next if grep { $_ eq $n } @order, ($icount2 // '');
	push @order, $n;
	my $t = smp2_of($n);
	push @order, $t if $t && ($run{$n}{meta}{place} // '') eq 'guest' && !grep { $_ eq $t } @order;
}
push @order, grep { my $n = $_; !grep { $_ eq $n } @order, ($icount2 // '') } sort keys %run;

# across boots: the base cell of every run side by side
my @xrows;
for my $n (grep { $run{$_}{rows}{base} } @order, ($icount2 // ())) {
	my $r = $run{$n};
	push @xrows, [$n, ($r->{meta}{clock} // '') eq 'icount' ? 'icount' : "wall ($r->{meta}{accel})",
		map { fmt_cell($r, 'base', '-', $_, 'first') } @METHODS];
}
if (@xrows) {
	out("### All kernels at a glance\n\n");
	out("Base cell, spawn call to first instruction, median µs (ratio to $BASELINE in the same run). ",
	    "The combined kernel has both series: both designs measured in one boot.\n\n");
	table(['run', 'clock', @METHODS], @xrows);
}
bench_section($_, '###') for @order;

# --- icount repeatability ---------------------------------------------------------------------------------
my ($icount_max, $icount_n, $icount_over) = (undef, 0, []);
if ($icount1 && $icount2) {
	out("### Repeatability of the icount runs\n\n");
	my @devs;
	for my $cell (sort keys %{$run{$icount1}{rows}}) {
		for my $param (sort keys %{$run{$icount1}{rows}{$cell}}) {
			for my $method (@METHODS, $NO_SPAWN) {
				for my $metric (qw(first roundtrip spawns_per_s parent_ns)) {
					my $a = val($run{$icount1}, $cell, $param, $method, $metric);
					my $b = val($run{$icount2}, $cell, $param, $method, $metric);
					next unless defined $a && defined $b && $a + $b > 0;
					push @devs, [abs($a - $b) / (($a + $b) / 2), $cell, $param, $method, $metric, $a, $b];
				}
			}
		}
	}
	@devs = sort { $b->[0] <=> $a->[0] } @devs;
	$icount_n = @devs;
	$icount_max = @devs ? $devs[0][0] : undef;
	$icount_over = [grep { $_->[0] > 0.01 } @devs];
	my @lat = grep { $_->[4] =~ /^(first|roundtrip)$/ } @devs;
	my $lat_over = grep { $_->[0] > 0.01 } @lat;
	out("Two boots of the same kernel with `vm/run --icount` (guest time = instructions executed). For every ",
	    "figure present in both (the median of each cell, method and metric), deviation = |a - b| / mean(a, b). ",
	    scalar(@devs), " figures compared: ", scalar(@devs) - @$icount_over, " within 1 %, largest deviation ",
	    defined $icount_max ? pct($icount_max) : '-', "; latency medians only (not the loops of the throughput and async cells): ", scalar(@lat) - $lat_over, " of ",
	    scalar(@lat), " within 1 %", @lat ? ", largest " . pct($lat[0][0]) : '', ".\n\n");
	out("The figures that differ most:\n\n");
	table(['cell', 'method', 'metric', 'run 1', 'run 2', 'deviation'],
		map { ["$_->[1]: $_->[2]", $_->[3], $_->[4], $_->[4] eq 'spawns_per_s' ? sprintf('%.1f', $_->[5]) : us($_->[5]),
			$_->[4] eq 'spawns_per_s' ? sprintf('%.1f', $_->[6]) : us($_->[6]), pct($_->[0])] } @devs[0 .. ($#devs < 9 ? $#devs : 9)]);
}

# --- plots ----------------------------------------------------------------------------------------------------
mkdir "$dir/plots";
my @plots;
sub plot {
	my ($n, $cell, $xlabel, $file, $logy) = @_;
	my $r = $run{$n}; my @params = @{$r->{order}{$cell} // []}; return unless @params;
	my @ms = grep { my $m = $_; grep { defined val($r, $cell, $_, $m, 'first') } @params } methods_of($r);
	return unless @ms;
	open(my $d, '>', "$dir/plots/$file.dat") or die;
	print $d "# x\t", join("\t", @ms), "\n";
	for my $i (0 .. $#params) {
		print $d "$i\t", join("\t", map { my $v = val($r, $cell, $params[$i], $_, 'first'); defined $v ? $v / 1000 : 'NaN' } @ms), "\n";
	}
	close $d;
	my $xtics = join(', ', map { "\"$params[$_]\" $_" } 0 .. $#params);
	my $unit = $r->{meta}{clock} eq 'icount' ? 'thousands of guest instructions' : 'µs';
	open(my $g, '>', "$dir/plots/$file.gp") or die;
	print $g "set terminal svg size 720,420 dynamic font 'sans,11'\nset output '$dir/plots/$file.svg'\n",
		"set title \"spawn call to first instruction, median: ", run_title($n) =~ s/"/\\"/gr, "\" noenhanced font 'sans,10'\n",
		"set xlabel '$xlabel'\nset ylabel '$unit'\nset xtics ($xtics)\nset key top left noenhanced\nset grid\n",
		$logy ? "set logscale y\n" : "set yrange [0:*]\n",
		"set datafile missing 'NaN'\n",
		"plot ", join(', ', map { "'$dir/plots/$file.dat' using 1:" . ($_ + 2) . " with linespoints title '$ms[$_]'" } 0 .. $#ms), "\n";
	close $g;
	if (system('gnuplot', "$dir/plots/$file.gp") == 0) { push @plots, [$n, $cell, "plots/$file.svg"] }
	else { warn "report.pl: gnuplot failed for $file\n" }
}
for my $n (grep { $_ ne ($icount2 // '') && $run{$_}{rows}{memory} } sort keys %run) {
	plot($n, 'memory', 'parent memory', "memory-$n", 1);
	plot($n, 'path', 'failing PATH entries before the hit', "path-$n", 0);
}
out("### Plots\n\n");
for my $n (@order) {
	for my $p (grep { $_->[0] eq $n } @plots) {
		out("![$p->[1] sweep, $n]($p->[2])\n\n");
	}
}

# --- instruction profile: make profile's build/report/profile/ (bench/profile.pl) --------------------------
sub tsv_rows {	# a TSV file with a header line, as hashes
	my ($file) = @_;
	my ($head, @lines) = split /\n/, slurp($file) // return ();
	my @cols = split /\t/, $head;
	return map { my %r; @r{@cols} = split /\t/; \%r } @lines;
}
if (my @prof = grep { $_->{cell} eq 'base' } tsv_rows("$dir/profile/summary.tsv")) {
	my $k = keyvals("$dir/profile/kernel");
	out("## Instruction profile\n\n",
	    "From `make profile`, not from the runs above: the combined kernel in its `profile` flavour (the tracers built in; head ",
	    $k->{head} // '?', "), under icount, function_graph over each method's spawns of the base cell, costs corrected for the ",
	    "tracer's own instructions. Instructions per spawn (spawn call, the child's exec and exit, the parent's wait); ",
	    "[profile/profile.md](profile/profile.md) has each method's top functions, more pairs and the folded stacks.",
	    (-d "$dir/profile/flame" ? ' Flame graphs of one spawn: ' . join(', ', map { "[$_](profile/flame/$_.svg)" }
		grep { -f "$dir/profile/flame/$_.svg" } @METHODS) . '.' : ''), "\n\n");
	table(['method', 'untraced first', 'kernel to first', 'untraced round trip', 'kernel', 'traced calls', 'tracer cost per call',
		'kernel spread between boots'],
		map { my $r = $_; [map { $r->{$_} } qw(method first_untraced kernel_first roundtrip_untraced kernel calls h kernel_spread)] } @prof);
	my @diff = tsv_rows("$dir/profile/diff.tsv");
	for my $p (map { [$_, $BASELINE] } qw(clone-actions-raw iouring-raw builder-raw builder-reuse-raw)) {
		my @d = grep { $_->{cell} eq 'base' && $_->{a} eq $p->[0] && $_->{b} eq $p->[1] } @diff;
		next unless @d;
		out("$p->[0] vs $p->[1], the ten functions whose self cost differs most in the median spawn (then the means; ",
		    "positive: $p->[0] spends more):\n\n");
		table(['function', "self, $p->[0]", "self, $p->[1]", 'Δ self', 'Δ self, mean', 'Δ self to first', 'Δ inclusive'],
			map { ["`$_->{function}`", @$_{qw(a_self_median b_self_median d_self_median d_self d_self_first d_incl)}] } @d[0 .. ($#d < 9 ? $#d : 9)]);
	}
	if (my @entry = tsv_rows("$dir/profile/entry.tsv")) {
		out("One failing PATH entry (from 1 to 16 failing entries before the child's, per entry):\n\n");
		table(['method', 'untraced first', 'kernel to first', 'untraced round trip', 'kernel', 'traced calls'],
			map { my $r = $_; [map { $r->{$_} } qw(method first_untraced kernel_first roundtrip_untraced kernel calls)] } @entry);
	}
}

# --- issue 14's speed targets, in the first icount run --------------------------------------------------
# [what, method, its figure, baseline's figure, target]; a figure is [cell, param, metric] or, for a PATH
# entry, the cost per entry from 1 to 64 failing entries
my @TARGETS = (
	['to first instruction', 'clone-actions-raw', ['base', '-', 'first'], $BASELINE, 0.99],
	['round trip', 'clone-actions-raw', ['base', '-', 'roundtrip'], $BASELINE, 0.99],
	['1 GiB touched parent vs small, to first instruction', 'clone-actions-raw', ['memory', '1G-touched', 'first'],
		['memory', 'small', 'first'], 1.01],
	['one failing PATH entry, to first instruction', 'clone-actions-raw', 'entry', 'posix_spawnp', 0.80],
	['to first instruction', 'iouring-raw', ['base', '-', 'first'], $BASELINE, 1.05],
	# issue 25's: a reused builder skips the parent's mm, fd table and signal handlers
	['to first instruction', 'builder-reuse-raw', ['base', '-', 'first'], $BASELINE, 0.97],
);
sub entry_cost {	# per failing PATH entry, from 1 to 64 entries
	my ($r, $m) = @_;
	my $p1 = val($r, 'path', '1', $m, 'first'); my $p64 = val($r, 'path', '64', $m, 'first');
	return defined $p1 && defined $p64 ? ($p64 - $p1) / 63 : undef;
}
if ($icount1) {
	my $r = $run{$icount1};
	my @rows;
	for my $t (@TARGETS) {
		my ($what, $m, $fig, $base, $target) = @$t;
		my ($a, $b, $against);
		if ($fig eq 'entry') {
			($a, $b, $against) = (entry_cost($r, $m), entry_cost($r, $base), $base);
		} elsif (ref $base) {
			($a, $b, $against) = (val($r, @$fig[0, 1], $m, $fig->[2]), val($r, @$base[0, 1], $m, $base->[2]), "$m, small parent");
		} else {
			($a, $b, $against) = (val($r, @$fig[0, 1], $m, $fig->[2]), val($r, @$fig[0, 1], $base, $fig->[2]), $base);
		}
		my $x = defined $a && defined $b && $b > 0 ? $a / $b : undef;
		push @rows, [$m, $what, $against, map({ defined $_ ? sprintf('%.0f', $_) : '-' } $a, $b), defined $x ? sprintf('%.3f', $x) : '-',
			sprintf('%.2f', $target), !defined $x ? 'not measured' : $x <= $target ? 'yes' : '**no**'];
	}
	out("## Speed targets\n\n",
	    "Issue 14's targets (issue 25's for the builder), measured in icount run $icount1 (instructions, medians, one boot). Where a target is not met, ",
	    "docs/benchmark.md (\"What the profile explains\") gives the instruction profile's account of the floor.\n\n");
	table(['method', 'figure', 'against', 'method\'s', 'against\'s', 'ratio', 'target', 'met'], @rows);
	my $sys = val($r, 'syscall', 'getppid', $NO_SPAWN, 'roundtrip');
	out("For scale, one system call round trip (getppid(), spawnbench's syscall cell) in the same run: $sys instructions; ",
	    "that is what an in-kernel child saves over a vfork() child, which returns to user space before its execve().\n\n")
		if defined $sys;
}

# --- findings --------------------------------------------------------------------------------------------
out("## Findings\n\n");
my @f;
my $main = $icount1 // $combined_wall;
my %has = map { $_ => 1 } grep { $main && $run{$main}{methods}{$_} && $run{$main}{methods}{$_} eq 'available' } @METHODS;
if ($main) {
	my $r = $run{$main};
	my $what = $r->{meta}{clock} eq 'icount' ? "instructions (run $main)" : "wall-clock time (run $main)";
	for my $m (grep { $has{$_} } @METHODS) {
		next if $m eq $BASELINE;
		my $a = val($r, 'base', '-', $m, 'first'); my $b = val($r, 'base', '-', $BASELINE, 'first');
		my $a2 = val($r, 'base', '-', $m, 'roundtrip'); my $b2 = val($r, 'base', '-', $BASELINE, 'roundtrip');
		next unless defined $a && defined $b;
		push @f, sprintf("Small parent, %s: %s takes %.2fx the time of vfork+execve to the child's first instruction (%s vs %s µs) and %.2fx for the round trip.",
			$what, $m, $a / $b, us($a), us($b), $a2 / $b2);
	}
	# the designs compared by their raw rows (the ABIs), then through libcompat
	for my $pair (['iouring-raw', 'clone-actions-raw', 'the ABIs called directly (raw rows)'], ['iouring', 'clone-actions', "through libcompat's backends"]) {
		my ($im, $cm, $how) = @$pair;
		next unless $has{$im} && $has{$cm};
		for my $metric (qw(first roundtrip)) {
			my $i = val($r, 'base', '-', $im, $metric); my $c = val($r, 'base', '-', $cm, $metric);
			next unless defined $i && defined $c;
			my ($fast, $slow, $x) = $i < $c ? ($im, $cm, $c / $i) : ($cm, $im, $i / $c);
			push @f, sprintf("Same boot, both designs, %s, %s: %s is faster than %s by %.1f %% (%s).", $how, $metric eq 'first' ? 'to first instruction' : 'round trip', $fast, $slow, 100 * ($x - 1), $what);
		}
	}
	if (my @l = library_ratios($r)) {
		my @miss = grep { $_->[2] > $LIBRARY_TARGET } @l;
		push @f, sprintf("libcompat's own cost over the raw call it wraps, to first instruction, in %s: %s; target at most %s: %s.", $what,
			join(', ', map { sprintf('%s %.3fx %s', $_->[0], $_->[2], $_->[1]) } @l), pct($LIBRARY_TARGET - 1),
			@miss ? 'not met by ' . join(', ', map { $_->[0] } @miss) : 'met by all');
	}
	# asynchronous spawning, in this run and in the wall-clock combined runs with one and two vCPUs
	my %seen;
	for my $ar (grep { defined && $run{$_}{rows}{async} && !$seen{$_}++ } $main, $combined_wall, $combined_wall ? smp2_of($combined_wall) : undef) {
		my $a = $run{$ar}; my @ks = @{$a->{order}{async}};
		my $where = sprintf('run %s, %s vCPU%s', $ar, $a->{meta}{vcpus} // '?', ($a->{meta}{vcpus} // 0) == 1 ? '' : 's');
		my @am = grep { $_ ne $BASELINE } async_methods($a);
		my @rate = map { my $m = $_; "$m " . join('/', map { ratio(val($a, 'async', $_, $m, 'spawns_per_s'), val($a, 'async', $_, $BASELINE, 'spawns_per_s')) } @ks) } @am;
		my @slow = map { my $m = $_; "$m " . join('/', map { my ($x) = slowdown($a, $_, $m); defined $x ? sprintf('%.2f', $x) : '-' } @ks) } $BASELINE, @am;
		push @f, "Asynchronous spawning ($where), spawns/s as a ratio to vfork+execve's back-to-back loop with k = " . join('/', @ks) .
			" spawns before the reap: " . join(', ', @rate) . "; a working parent's slowdown (its time over its work alone): " . join(', ', @slow) . "." if @am;
	}
	my @memgrow;
	for my $m (grep { $has{$_} } @METHODS) {
		my $s = val($r, 'memory', 'small', $m, 'first'); my $g = val($r, 'memory', '1G-touched', $m, 'first');
		push @memgrow, sprintf('%s %.2fx', $m, $g / $s) if defined $s && defined $g && $s > 0;
	}
	push @f, "Parent with 1 GiB touched vs small, first-instruction latency: " . join(', ', @memgrow) . " (page tables are copied only by fork)." if @memgrow;
	my @pathcost;
	for my $m (grep { $has{$_} } @METHODS) {
		my $c = entry_cost($r, $m);
		push @pathcost, sprintf('%s %s µs', $m, us($c)) if defined $c;
	}
	push @f, "Cost of one failing PATH entry (from 1 to 64 entries, per entry): " . join(', ', @pathcost) . "." if @pathcost;
	my @envcost;
	for my $m (grep { $has{$_} } @METHODS) {
		my $e0 = val($r, 'env', 'empty', $m, 'first'); my $e1 = val($r, 'env', '30KiB', $m, 'first');
		push @envcost, sprintf('%s +%s µs', $m, us($e1 - $e0)) if defined $e0 && defined $e1;
	}
	push @f, "A 30 KiB environment adds: " . join(', ', @envcost) . "." if @envcost;
	my @dup;
	for my $m (grep { $has{$_} } @METHODS) {
		my $d0 = val($r, 'dup2', '0', $m, 'first'); my $d3 = val($r, 'dup2', '3', $m, 'first');
		if (defined $d0 && defined $d3) { push @dup, sprintf('%s %+.1f %%', $m, 100 * ($d3 / $d0 - 1)) }
		elsif (status($r, 'dup2', '3', $m, 'first') =~ /^unsupported: (.*)/) { push @dup, "$m cannot ($1)" }
	}
	push @f, "Three dup2 actions: " . join(', ', @dup) . "." if @dup;
	my $tr = $combined_wall && smp2_of($combined_wall) ? $run{smp2_of($combined_wall)} : $r;
	my @scale;
	for my $m (grep { $has{$_} } @METHODS) {
		my $t1 = val($tr, 'tput', '1-thread', $m, 'spawns_per_s'); my $t2 = val($tr, 'tput', '2-threads', $m, 'spawns_per_s');
		push @scale, sprintf('%s %.2fx', $m, $t2 / $t1) if $t1 && $t2;
	}
	my $over2 = grep { /(\d+\.\d+)x$/ && $1 > 2.05 } @scale;
	push @f, "Two spawning threads vs one (spawns/s, run $tr->{name}): " . join(', ', @scale) .
		(($tr->{meta}{vcpus} // 2) == 1 ? ' (one vCPU: no parallelism possible here)' : '') .
		($over2 ? '; more than 2x is a TCG effect: a lone thread leaves the second vCPU idle, and waking it costs milliseconds, which two busy threads avoid' : '') . "." if @scale;
	for my $m (@SERIES) { push @f, "$m was not measured in $main: $r->{methods}{$m}." if $r->{methods}{$m} && !$has{$m} }
	for my $n (grep { $run{$_}{rows}{base} } sort keys %run) {
		my $e = run_errors($run{$n});
		push @f, "In run $n, $_ failed in " . scalar(@{$e->{$_}}) . " cells (first: $e->{$_}[0])." for grep { $e->{$_} } @METHODS;
	}
}
if ($combined_wall && $main ne $combined_wall) {
	my $r = $run{$combined_wall};
	for my $m (grep { $run{$combined_wall}{methods}{$_} && $run{$combined_wall}{methods}{$_} eq 'available' } @SERIES) {
		my $a = val($r, 'base', '-', $m, 'first'); my $b = val($r, 'base', '-', $BASELINE, 'first');
		push @f, sprintf("Wall clock (TCG, run %s): %s at %.2fx vfork+execve to first instruction.", $combined_wall, $m, $a / $b) if defined $a && defined $b;
	}
}
for my $s (@SERIES) {
	my $no = cannot($s);
	push @f, defined $no ? "$s cannot express: " . (@$no ? join(', ', @$no) : 'nothing that libcompat asks') . "." : "$s has no libcompat backend yet.";
}
if (my $no = cannot('posix')) { push @f, "glibc posix_spawn cannot express: " . join(', ', @$no) . "." }
if (defined $icount_max) {
	push @f, sprintf("icount repeatability: %d figures, largest deviation %s; %s.", $icount_n, pct($icount_max),
		@$icount_over ? scalar(@$icount_over) . ' beyond 1 % (listed above)' : 'all within 1 %');
}
if (my $sum = slurp("$dir/results/summary.txt")) {
	my ($total) = $sum =~ /^(\d+ passed, \d+ failed, \d+ skipped, \d+ diverged)$/m;
	push @f, "Conformance corpus, all places and backends: $total." if $total;
}
my ($safety_runs) = ($safety // '') =~ /^\| test \|(.*)\|\n/;
if ($safety_runs and my ($counts) = $safety =~ /^\| \*\*passed[^|]*\|(.*)\|$/m) {
	my @runs = map { s/^\s+|\s+$//gr } split /\|/, $safety_runs;
	my @counts = map { s/^\s+|\s+$//gr } split /\|/, $counts;
	push @f, "Safety suite, passed / failed / unsupported / diverges: " .
		join(', ', map { "$runs[$_] $counts[$_]" } 0 .. $#runs) . ".";
}
push @f, @rfc_findings;
push @f, @client_findings;
out(map { "- $_\n" } @f);
out("\n");

out("## Open questions\n\n");
my @q;
push @q, "These are TCG times. The ratios between methods in one boot and the instruction counts of the icount runs carry over to hardware better than absolute times, but not exactly: TCG makes page-table and TLB work (fork, exec's mm teardown) dearer relative to plain code than hardware does. A run on a machine with KVM (the same `make report`) would settle the absolute numbers." if grep { $_ ne 'kvm' } @accels;
push @q, "Not measured here: " . join(', ', map { "$_ ($run{$main}{methods}{$_})" } grep { $run{$main}{methods}{$_} && !$has{$_} } @SERIES) . "." if $main && grep { $run{$main}{methods}{$_} && !$has{$_} } @SERIES;
if (@$icount_over) {
	my $tput = grep { $_->[4] =~ /^(spawns_per_s|parent_ns)$/ } @$icount_over;
	push @q, "The icount runs differ by more than 1 % on " . scalar(@$icount_over) . " figures" .
		($tput == @$icount_over ? ", all of them loops (spawns/s or a working parent's time: thread start, children and scheduling included), while every latency median repeats" : '') .
		": what varies between two boots that execute the same program?";
}
push @q, "Does the io_uring design keep its cost when the ring is shared with other work (SQPOLL, a busy ring), and the clone3 design when a seccomp filter checks every action? Neither is measured here.";
push @q, "Parent memory beyond 1 GiB and many threads in the parent (spawnbench's parent has one or two) are not measured.";
out(map { "- $_\n" } @q);
out("\n");

out("## Raw data\n\n");
out("- `runs/RUN/bench.tsv`: spawnbench's output per run (every cell, method and metric with n, min, median, p90, mean in ns; the status of methods that did not run); `runs/RUN/meta`, `runs/RUN/vm-run.log`.\n");
out("- `results/`: TAP files per place and backend, `matrix.md`, `summary.txt`.\n");
out("- `caps.tsv`, `machine`, `kernels/`, `plots/*.dat` and `*.gp` (gnuplot scripts of the SVGs).\n");

# --- the decision brief --------------------------------------------------------------------------------
# One table, a column per design, every cell computed from the files read
# above and each row linked to the section with its evidence; then findings
# in plain sentences with their numbers, each left out, and said so, when
# its data is missing. "not measured": this run has no data for the cell;
# "-": the row does not apply to the design (a baseline has no patches, the
# RFC as posted no libcompat backend and no benchmark method).
my $NM = 'not measured';
my @DESIGNS = (
	{ col => 'RFC', what => 'io_uring CLONE/EXEC as posted (series-iouring-rfc)', series => 'iouring-rfc', rfc => 1 },
	{ col => 'io_uring', what => 'series-iouring', series => 'iouring', backend => 'iouring', raw => 'iouring-raw' },
	{ col => 'clone3', what => 'series-clone-actions', series => 'clone-actions', backend => 'clone-actions', raw => 'clone-actions-raw' },
	{ col => 'builder', what => 'series-builder', series => 'builder', backend => 'builder', raw => 'builder-raw',
	  reuse => 'builder-reuse-raw' },
	{ col => 'posix_spawn', what => "glibc's posix_spawn (posix_spawnp for a PATH search; libcompat's `posix` backend)",
	  backend => 'posix', raw => 'posix_spawn', path => 'posix_spawnp', baseline => 1 },
	{ col => 'vfork', what => "vfork+execve (libcompat's `vfork` backend for what it can express)", backend => 'vfork',
	  raw => $BASELINE, baseline => 1 },
);
my @designs = grep { $_->{rfc} || $_->{baseline} || $_->{series} } @DESIGNS;
# where the corpus and the clients of a backend are read: the report's own
# release kernel first, then make check's debug kernel, the series alone, the host
sub places_for { my ($d) = @_; return ('combined-release', 'combined-debug', $d->{series} ? "$d->{series}-debug" : (), 'host', 'chroot') }
my %summary;	# "place/run" -> [passed, failed, skipped, diverged], vm/tap-summary's lines
for (split /\n/, slurp("$dir/results/summary.txt") // '') {
	$summary{$1} = [$2, $3, $4, $5] if /^(\S+):\s+(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) diverged/;
}
my %safety_counts;	# "place/run" -> [passed, failed, unsupported, diverges], the safety table's last row
if (($safety // '') =~ /^\| test \|(.*)\|\n/m) {
	my @cols = map { s/^\s+|\s+$//gr } split /\|/, $1;
	if ($safety =~ /^\| \*\*passed[^|]*\|(.*)\|$/m) {
		my @c = map { [/(\d+) \/ (\d+) \/ (\d+) \/ (\d+)/] } split /\|/, $1;
		@safety_counts{@cols} = @c;
	}
}
my %from;	# what a row read, per design: "place/run" or a run's name
sub first_place {	# the first of a design's places whose key is in the hash
	my ($d, $h, $suffix) = @_;
	return (grep { $h->{"$_/$suffix"} } places_for($d))[0];
}
sub pudf { my ($p, $u, $d, $f) = @_; return "$p/$u/$d/$f" }	# the brief's order: pass/unsupported/diverged/fail
sub ratio3 { my ($a, $b) = @_; return defined $a && defined $b && $b > 0 ? sprintf('%.3f', $a / $b) : $NM }
my $speed_run = $icount1 ? $run{$icount1} : undef;
my $async_run = (grep { defined && $run{$_}{rows}{async} } ($combined_wall ? smp2_of($combined_wall) : undef), $icount1)[0];
my $async_k = $async_run ? (sort { $b <=> $a } @{$run{$async_run}{order}{async}})[0] : undef;
sub speed {	# a design's figure over vfork+execve's, in the first icount run
	my ($d, $cell, $param, $metric, $method) = @_;
	return $NM unless $speed_run && ($method //= $d->{raw});
	return ratio3(val($speed_run, $cell, $param, $method, $metric), val($speed_run, $cell, $param, $BASELINE, $metric));
}
sub by_severity {	# "high/medium/low" counts of hazard rows
	my (@h) = @_; my %n; $n{$_->[3]}++ for @h;
	return join('/', map { $n{$_} // 0 } qw(high medium low));
}
sub hazards_of { my ($s) = @_; return grep { $_->[0] eq $s } @hazards }
sub rfc_key { my ($test) = @_; return $test =~ s/\./\//r }	# clone-exec-chain.x is vm/by-test's clone-exec-chain/x
sub abi_counts {	# pass/fail/skip/died-or-hung of a by-test result set
	my ($res) = @_; my %n; $n{$_->{status}}++ for values %$res;
	return join('/', map { $n{$_} // 0 } qw(pass fail skip)) . '/' . (($n{crashed} // 0) + ($n{hung} // 0));
}
# a cell of the series' patches (none for a baseline), or of its readiness (- for one)
sub cost_cell { my ($f) = @_; return sub { my ($d) = @_; return 'none' if $d->{baseline}; my $c = $cost{$d->{series}}; return $c ? $f->($c) : $NM } }
sub ready_cell { my ($f) = @_; return sub { my ($d) = @_; return '-' if $d->{baseline}; my $r = $ready{$d->{series}}; return ($r && $f->($r)) || $NM } }
my %cell_of = (
	features => sub {
		my ($d) = @_;
		return 'no backend' unless $d->{backend};
		my ($i) = grep { $caps_cols[$_] eq $d->{backend} } 0 .. $#caps_cols;
		return $NM unless defined $i;
		return scalar(grep { $_->[$i] eq 'yes' } @caps) . '/' . scalar(@caps);
	},
	clients => sub {
		my ($d) = @_;
		return 'no backend' unless $d->{backend};
		my %runs = map { ("$_->[0]/$_->[1]" => $_) } @client_runs;
		my $p = first_place($d, \%runs, $d->{backend}) // return $NM;
		my @spawning = grep { ($_->{strict}{made} // 0) > 0 } @{$runs{"$p/$d->{backend}"}[2]};
		$from{clients}{$d->{col}} = "$p/clients-$d->{backend}";
		return scalar(grep { $_->{result} eq 'pass' } @spawning) . '/' . scalar(@spawning);
	},
	corpus => sub {
		my ($d) = @_;
		return 'no backend' unless $d->{backend};
		my $p = first_place($d, \%summary, $d->{backend}) // return $NM;
		my ($pass, $fail, $skip, $div) = @{$summary{"$p/$d->{backend}"}};
		$from{corpus}{$d->{col}} = "$p/$d->{backend}";
		return pudf($pass, $skip, $div, $fail);
	},
	safety => sub {
		my ($d) = @_;
		return 'no backend' unless $d->{backend};
		my $p = first_place($d, \%safety_counts, $d->{backend}) // return $NM;
		my ($pass, $fail, $unsup, $div) = @{$safety_counts{"$p/$d->{backend}"}};
		return pudf($pass, $unsup, $div, $fail);
	},
	abi => sub {
		my ($d) = @_;
		return $d->{rfc} ? ($rfc_results ? abi_counts($rfc_results) : $NM) :
			($d->{series} // '') eq 'iouring' ? ($rfc_series_results ? abi_counts($rfc_series_results) : $NM) : '-';
	},
	(map { my $state = $_; ("hazards_$state" => sub {
		my ($d) = @_;
		return '-' if $d->{rfc} || $d->{baseline};
		my @h = hazards_of($d->{series}) or return $NM;
		return by_severity(grep { $_->[2] eq $state } @h);
	}) } qw(fixed open inherent narrowed)),
	hazard_tests => sub {
		my ($d) = @_;
		return '-' if $d->{baseline};
		my @h = grep { $_->[4] ne '-' } hazards_of($d->{rfc} ? 'iouring' : $d->{series});
		my ($ran, $failed) = (0, 0);
		for my $h (@h) {
			if ($d->{rfc}) {
				my $r = ($rfc_results // {})->{rfc_key($h->[4])} or next;
				$ran++;
				$failed++ if $r->{status} ne 'pass' || @{$r->{splats}};
			} else {
				my $res = hazard_result($h->[4], $h->[0]);
				next if $res eq 'not run';
				$ran++;
				$failed++ if $res =~ /FAIL/;
			}
		}
		return $ran ? "$failed/$ran" : $NM;
	},
	patches => cost_cell(sub { $_[0]{patches} }),
	lines => cost_cell(sub { "+$_[0]{kadd}/-$_[0]{kdel}" }),
	files => cost_cell(sub { "$_[0]{kfiles}/" . scalar(keys %{$_[0]{subsystems}}) }),
	uapi => cost_cell(sub { scalar @{$_[0]{uapi}} }),
	calls => cost_cell(sub { scalar(@{$_[0]{syscalls}}) . '/' . scalar(@{$_[0]{opcodes}}) }),
	first => sub { speed($_[0], 'base', '-', 'first') },
	roundtrip => sub { speed($_[0], 'base', '-', 'roundtrip') },
	reuse => sub { my ($d) = @_; return $d->{reuse} ? speed($d, 'base', '-', 'first', $d->{reuse}) : '-' },
	async => sub {
		my ($d) = @_;
		return $NM unless $async_run && $d->{raw};
		my $r = $run{$async_run};
		return ratio3(val($r, 'async', $async_k, $d->{raw}, 'spawns_per_s'), val($r, 'async', $async_k, $BASELINE, 'spawns_per_s'));
	},
	parent => sub {
		my ($d) = @_;
		return $NM unless $async_run && $d->{raw};
		my $r = $run{$async_run};
		return ratio3(val($r, 'async', $async_k, $d->{raw}, 'parent_ns'), val($r, 'async', $async_k, $BASELINE, 'parent_ns'));
	},
	memory => sub {
		my ($d) = @_;
		return $NM unless $speed_run && $d->{raw};
		return ratio3(val($speed_run, 'memory', '1G-touched', $d->{raw}, 'first'), val($speed_run, 'memory', 'small', $d->{raw}, 'first'));
	},
	path => sub {
		my ($d) = @_;
		return $NM unless $speed_run && $d->{raw};
		return ratio3(entry_cost($speed_run, $d->{path} // $d->{raw}), entry_cost($speed_run, $BASELINE));
	},
	checkpatch => ready_cell(sub { $_[0]{checkpatch} && "$_[0]{checkpatch}[0]/$_[0]{checkpatch}[1]" }),	# clean of those checked
	built => ready_cell(sub { $_[0]{built} && "$_[0]{built}[0]/$_[0]{built}[2]" }),
	rework => ready_cell(sub { "$_[0]{fixups}/$_[0]{rewritten}" }),
);
# [label, section, cell], or [group] for a line that names the rows below it
my @BRIEF_ROWS = (
	['what it expresses'],
	['libcompat features', 'Expressiveness', 'features'],
	['real clients served', 'Real clients', 'clients'],
	['conformance'],
	['corpus P/U/D/F', 'Conformance', 'corpus'],
	['safety suite P/U/D/F', 'Safety', 'safety'],
	['io_uring ABI tests', 'The RFC as posted', 'abi'],
	['hazards, H/M/L'],
	['fixed', 'Hazards', 'hazards_fixed'],
	['open', 'Hazards', 'hazards_open'],
	['inherent', 'Hazards', 'hazards_inherent'],
	['narrowed', 'Hazards', 'hazards_narrowed'],
	['their tests failed', 'Hazards', 'hazard_tests'],
	['kernel cost'],
	['patches', 'Cost of each kernel change', 'patches'],
	['kernel lines', 'Cost of each kernel change', 'lines'],
	['files/subsystems', 'Cost of each kernel change', 'files'],
	['new uapi symbols', 'Cost of each kernel change', 'uapi'],
	['syscalls/opcodes', 'Cost of each kernel change', 'calls'],
	['speed, x vfork+execve'],
	['to first instruction', 'Benchmarks', 'first'],
	['round trip', 'Benchmarks', 'roundtrip'],
	['reused builder, first', 'Benchmarks', 'reuse'],
	['async spawns/s', 'Benchmarks', 'async'],
	['working parent time', 'Benchmarks', 'parent'],
	['1 GiB parent/small', 'Benchmarks', 'memory'],
	['per failing PATH entry', 'Benchmarks', 'path'],
	['upstream readiness'],
	['checkpatch clean', 'Upstream readiness', 'checkpatch'],
	['each patch builds', 'Upstream readiness', 'built'],
	['fix-ups/rewritten', 'Upstream readiness', 'rework'],
);
my %heading = map { anchor($_) => 1 } $md =~ /^#{2,3} (.*)$/mg;
my (%ref_of, @refs);	# section -> its reference name, and the sections in order
my @brow;	# [label, ref or undef, cells...], or [group]
for my $row (@BRIEF_ROWS) {
	my ($label, $section, $key) = @$row;
	unless ($key) { push @brow, [$label]; next }
	push @refs, $section if $heading{anchor($section)} && !$ref_of{$section};
	my $ref = $heading{anchor($section)} ? ($ref_of{$section} //= 'r' . scalar @refs) : undef;
	push @brow, [$label, $ref, map { $cell_of{$key}->($_) } @designs];
}
my $speed_label = $speed_run ? "run $icount1 (icount, kernel $speed_run->{meta}{series}-$speed_run->{meta}{flavour})" : undef;
my $brief = "## Decision brief\n\n";
$brief .= "One column per design: " . join('; ', map { "**$_->{col}**, $_->{what}" } @designs) . ". Every cell is computed from this " .
	"run's files; each row links to the section with its evidence. `$NM`: this run has no data for the cell; `-`: the row " .
	"does not apply to the design; `no backend`: libcompat has no backend for it. P/U/D/F: passed, unsupported, diverged, " .
	"failed; H/M/L: high, medium, low severity; io_uring ABI tests: passed/failed/skipped/kernel died or hung; their tests " .
	"failed: of the hazards' tests that ran, those that failed (on the RFC, failed, died or splatted); files/subsystems and " .
	"lines: the kernel part, not tests or documentation; speed: the design's raw call (glibc's own call, vfork+execve) over " .
	"vfork+execve in the same boot" . ($speed_label ? ", from $speed_label" : '') .
	($async_run ? "; async: k = $async_k spawns before the reap, run $async_run" : '') .
	"; 1 GiB parent/small: the call's own growth; fix-ups/rewritten: patches that fix earlier ones, lines they rework. " .
	"Plain text for mail: [brief.txt](brief.txt).\n\n";
my @bhead = ('', map { $_->{col} } @designs);
$brief .= Markdown::table(\@bhead, map { my ($l, $ref, @c) = @$_; @c ? [defined $ref ? "[$l][$ref]" : $l, @c] : ["**$l**", ('') x @designs] } @brow);
my @wheres;
for my $w (['corpus', 'corpus'], ['clients', 'real clients']) {
	my $f = $from{$w->[0]} or next;
	push @wheres, "$w->[1]: " . join(', ', map { "$_ `$f->{$_}`" } grep { $f->{$_} } map { $_->{col} } @designs);
}
$brief .= "Read from " . join('; ', @wheres) . ".\n\n" if @wheres;
$brief .= join('', map { "[$ref_of{$_}]: #" . anchor($_) . "\n" } @refs) . "\n";

# the findings under the brief: plain sentences, each from the cells' data
my (@bf, @missing);
if (@caps) {
	my %c = map { $_->{col} => $cell_of{features}->($_) } grep { $_->{backend} } @designs;
	my @has = grep { $c{$_} ne $NM } map { $_->{col} } grep { $_->{backend} } @designs;
	my @lack = map { my $no = cannot($_->{backend}); $no && @$no ? "$_->{col} lacks " . join(', ', @$no) : () }
		grep { $_->{backend} && !$_->{baseline} && $c{$_->{col}} ne $NM } @designs;
	push @bf, "What a spawn can ask for: of libcompat's " . scalar(@caps) . " features, " .
		join(', ', map { my ($y) = $c{$_} =~ m{^(\d+)}; "$_ expresses $y" } @has) . (@lack ? '; ' . join('; ', @lack) : '') . '.';
} else { push @missing, 'what each design expresses (no caps.tsv)' }
my @corp = grep { $_->[1] ne $NM && $_->[1] ne 'no backend' } map { [$_->{col}, $cell_of{corpus}->($_)] } @designs;
if (@corp) {
	push @bf, "The shared corpus, passed/unsupported/diverged/failed: " . join(', ', map { "$_->[0] $_->[1]" } @corp) . '.';
} else { push @missing, 'conformance (no results/summary.txt)' }
if ($rfc_results) {
	my ($rfc) = grep { $_->{rfc} } @designs;
	my @ht = split m{/}, $cell_of{hazard_tests}->($rfc);
	my %n; $n{$_->{status}}++ for values %$rfc_results;
	push @bf, sprintf('The RFC as posted, on the series\' %d io_uring ABI tests: %d pass, %d fail, the kernel died or hung in %d' .
		'%s%s.', scalar(keys %$rfc_results), $n{pass} // 0, $n{fail} // 0, ($n{crashed} // 0) + ($n{hung} // 0),
		$rfc_series_results ? sprintf('; series-iouring passes %d of them', scalar(grep { $_->{status} eq 'pass' } values %$rfc_series_results)) : '',
		@ht == 2 ? "; of the series' hazard tests that ran on it, $ht[0] of $ht[1] fail, die or splat" : '');
} else { push @missing, 'the RFC as posted (no abi/iouring-rfc-debug/results.tsv)' }
if (@parity >= 2) {
	my @s = map { "$_->[3] " . join(', ', n_of($_->[1]{kadd}, 'kernel line'), n_of(scalar @{$_->[1]{opcodes}}, 'opcode'),
		n_of(scalar @{$_->[1]{uapi}}, 'uapi symbol')) } @parity;
	my @o = map { "series-$_ " . join(', ', n_of($cost{$_}{kadd}, 'kernel line'), n_of(scalar @{$cost{$_}{syscalls}}, 'system call'),
		n_of(scalar @{$cost{$_}{opcodes}}, 'opcode'), n_of(scalar @{$cost{$_}{uapi}}, 'uapi symbol')) } grep { $cost{$_} } qw(clone-actions builder);
	my $ml = make_like_ratio('iouring-raw');
	push @bf, "The price of parity for io_uring: " . join('; ', @s) .
		($ml ? sprintf('; at parity its make-like spawn takes %.3f times clone-actions-raw\'s', $ml->[0]) : '') . (@o ? "; against " . join(', ', @o) : '') . '.';
} else { push @missing, 'the price of parity (no series-iouring)' }
my @sp = grep { $_->[1] =~ /^\d/ } map { [$_, $cell_of{first}->($_), $cell_of{roundtrip}->($_)] } grep { $_->{raw} && $_->{raw} ne $BASELINE } @designs;
if (@sp) {
	my @k = sort { $a->[1] <=> $b->[1] } grep { !$_->[0]{baseline} } @sp;
	push @bf, "To the child's first instruction, in $speed_label, over vfork+execve: " .
		join(', ', map { "$_->[0]{col} ($_->[0]{raw}) $_->[1] (round trip $_->[2])" } @sp) .
		(@k ? "; the fastest kernel design called raw is $k[0][0]{col}" : '') . '.';
} else { push @missing, 'speed (no icount run with the raw methods)' }
my @as = grep { $_->[1] =~ /^\d/ } map { [$_, $cell_of{async}->($_), $cell_of{parent}->($_)] } grep { $_->{raw} && $_->{raw} ne $BASELINE } @designs;
if (@as) {
	push @bf, "Asynchronous spawning, k = $async_k spawns before the reap (run $async_run, " . ($run{$async_run}{meta}{vcpus} // '?') .
		" vCPUs), over vfork+execve: spawns per second " . join(', ', map { "$_->[0]{col} $_->[1]" } @as) .
		"; a working parent's time " . join(', ', map { "$_->[0]{col} $_->[2]" } @as) . '.';
} else { push @missing, 'asynchronous spawning (no async cell)' }
$brief .= "Findings:\n\n" . join('', map { "- $_\n" } @bf) . "\n";
$brief .= "Left out for want of data: " . join('; ', @missing) . ".\n\n" if @missing;
substr($md, $brief_at, 0) = $brief;

# the same table as plain text, for mail: 100 columns, "n/m" for not measured
{
	my @rows = (\@bhead, map { my ($l, undef, @c) = @$_; @c ? ["  $l", map { $_ eq $NM ? 'n/m' : $_ } @c] : [$l] } @brow);
	my @w = map { my $i = $_; (sort { $b <=> $a } map { length($_->[$i] // '') } grep { @$_ > 1 } @rows)[0] } 0 .. $#bhead;
	my $txt = "Decision brief (spawnlab, " . ($machine->{date} // 'date unknown') . "; REPORT.md has each row's evidence)\n\n";
	for my $r (@rows) { $txt .= join('  ', map { sprintf($_ ? "%$w[$_]s" : "%-$w[$_]s", $r->[$_]) } 0 .. $#$r) =~ s/\s+$//r . "\n" }
	$txt .= "\n" . wrap("Columns: " . join('; ', map { "$_->{col}: $_->{what}" } @designs) . ".") .
		wrap("n/m: not measured in this run; -: does not apply. P/U/D/F: passed/unsupported/diverged/failed; " .
			"H/M/L: high/medium/low severity. Speed: ratio to vfork+execve in the same boot.") .
		"\n" . join('', map { wrap("- $_", '  ') } @bf);
	$txt =~ s/`//g;
	open(my $t, '>', "$dir/brief.txt") or die "$dir/brief.txt: $!\n";
	print $t $txt;
	close $t;
}

open(my $o, '>', "$dir/REPORT.md") or die "$dir/REPORT.md: $!\n";
print $o $md;
close $o;
print "report.pl: wrote $dir/REPORT.md (", scalar(@plots), " plots)\n";
