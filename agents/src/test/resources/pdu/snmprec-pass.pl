#!/usr/bin/perl
# net-snmp pass_persist handler that serves an snmpsim .snmprec capture (OID|TYPE|VALUE lines)
# read-only, so a real snmpd answers GET/GETNEXT/GETBULK for the captured OIDs.
# Usage (in snmpd.conf, through a wrapper script): pass_persist ROOT /path/wrapper.sh, where the
# wrapper runs: perl snmprec-pass.pl FILE.snmprec ROOT (only OIDs below ROOT are served).
use strict;
use warnings;

$| = 1;
my $file = shift or die "usage: snmprec-pass.pl FILE.snmprec [ROOT-OID]\n";
my $root = shift;
$root = ".$root" if defined $root && $root !~ /^\./;
my %tmap = (2 => 'integer', 4 => 'string', 6 => 'objectid', 64 => 'ipaddress',
            65 => 'counter', 66 => 'gauge', 67 => 'timeticks', 70 => 'counter64');
my (%val, %type);
open my $fh, '<', $file or die "cannot open $file: $!\n";
while (my $line = <$fh>) {
  chomp $line;
  $line =~ s/\r$//;
  next if $line =~ /^\s*$/ || $line =~ /^#/;
  my ($oid, $t, $v) = split /\|/, $line, 3;
  $v = '' unless defined $v;
  my $hex = ($t =~ s/x$//);
  my $ty = $tmap{$t};
  next unless defined $ty;
  if ($hex) {
    $v = join(' ', unpack('(A2)*', $v));
    $ty = 'octet' if $ty eq 'string';
  }
  $oid = ".$oid" unless $oid =~ /^\./;
  next if defined $root && index("$oid.", "$root.") != 0;
  $val{$oid} = $v;
  $type{$oid} = $ty;
}
close $fh;

sub parts { my @p = split /\./, substr($_[0], 1); return \@p; }
sub cmpp {
  my ($a, $b) = @_;
  my $n = @$a < @$b ? scalar(@$a) : scalar(@$b);
  for (my $i = 0; $i < $n; $i++) {
    my $c = $a->[$i] <=> $b->[$i];
    return $c if $c;
  }
  return scalar(@$a) <=> scalar(@$b);
}
my @oids = sort { cmpp(parts($a), parts($b)) } keys %val;
my @split = map { parts($_) } @oids;

# index of the first OID strictly greater than the given one, or -1
sub next_index {
  my $q = parts($_[0]);
  my ($lo, $hi) = (0, scalar(@oids));
  while ($lo < $hi) {
    my $mid = int(($lo + $hi) / 2);
    if (cmpp($split[$mid], $q) <= 0) { $lo = $mid + 1; } else { $hi = $mid; }
  }
  return $lo < @oids ? $lo : -1;
}

sub answer {
  my ($oid) = @_;
  print "$oid\n$type{$oid}\n$val{$oid}\n";
}

while (defined(my $cmd = <STDIN>)) {
  chomp $cmd;
  if ($cmd eq 'PING') {
    print "PONG\n";
  } elsif ($cmd eq 'get') {
    my $oid = <STDIN>; chomp $oid;
    if (exists $val{$oid}) { answer($oid); } else { print "NONE\n"; }
  } elsif ($cmd eq 'getnext') {
    my $oid = <STDIN>; chomp $oid;
    my $i = next_index($oid);
    if ($i >= 0) { answer($oids[$i]); } else { print "NONE\n"; }
  } elsif ($cmd eq 'set') {
    my $o = <STDIN>; my $v = <STDIN>;
    print "not-writable\n";
  } elsif ($cmd eq '') {
    exit 0;
  } else {
    print "NONE\n";
  }
}
