# The piezo buzzer (issue 29): a passive transducer switched by a transistor from a PWM pin
# (machine.PWM, the ESP32's LEDC peripheral), handed in by hal/board.py. A tone is a square
# wave at its frequency, half on; quiet is the duty at 0 (the transistor off: no current).
# Setting both is a register write: nothing here waits.
_HALF = 32768  # duty_u16 of a square wave


class Buzzer:
    def __init__(self, pwm):
        self._pwm = pwm
        pwm.duty_u16(0)

    def tone(self, hz):
        self._pwm.freq(hz)
        self._pwm.duty_u16(_HALF)

    def quiet(self):
        self._pwm.duty_u16(0)
