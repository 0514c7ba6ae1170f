/*
 * sys/ioctl.h for Windows builds: only the terminal size request
 * (TIOCGWINSZ), answered from the console screen buffer of the descriptor
 * (GetConsoleScreenBufferInfo: window width and height). Returns 0, or -1
 * with errno ENOTTY when fd is not a console, EINVAL for other requests.
 */
#ifndef IOMARK_PLATFORM_SYS_IOCTL_H
#define IOMARK_PLATFORM_SYS_IOCTL_H

struct winsize {
    unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

#define TIOCGWINSZ 0x5413

int iom_win_ioctl(int fd, unsigned long req, ...);
#define ioctl iom_win_ioctl

#endif
