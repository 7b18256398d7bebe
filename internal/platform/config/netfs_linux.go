package config

import "syscall"

// Magic numbers of network and FUSE file systems (statfs(2), linux/magic.h).
var networkMagic = map[int64]string{
	0x6969:     "NFS",
	0x517B:     "SMB",
	0xFF534D42: "CIFS",
	0xFE534D42: "SMB2",
	0x65735546: "FUSE (sshfs and friends)",
	0x00C36400: "Ceph",
	0x01021997: "9P",
	0x5346414F: "AFS",
	0x47504653: "GPFS",
	0x0BD00BD0: "Lustre",
}

// networkFS names the network file system dir is on ("" for a local one
// or when it cannot tell).
func networkFS(dir string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return ""
	}
	return networkMagic[int64(st.Type)&0xFFFFFFFF]
}
