"""A differentiable simulation: a projectile with air drag is integrated with a tensor-dependent
`while` loop (it runs until the projectile lands, a number of steps known only at run time), and
the landing distance is differentiated with respect to the launch angle. Gradient descent on the
angle then hits a target distance. The gradient is checked against a finite difference.

    python examples/diff_sim.py [--short] [--plot [PATH]]
"""

import defun as tf
from example_utils import parse_args, progress, save_plot

args = parse_args(__doc__.splitlines()[0])
SPEED, DRAG, GRAVITY, DT = 20.0, 0.1, 9.81, 0.01
TARGET = 12.0


@tf.function
def landing_distance(angle):
    """Semi-implicit Euler steps while the projectile is above ground; returns x where it lands."""
    x, y = tf.constant(0.0), tf.constant(0.0)
    vx, vy = SPEED * tf.cos(angle), SPEED * tf.sin(angle)
    prev_x, prev_y = x, y
    while y >= 0.0:                                  # AutoGraph: a tf.while_loop on a tensor
        prev_x, prev_y = x, y
        speed = tf.sqrt(vx * vx + vy * vy)
        vx = vx - DT * DRAG * speed * vx
        vy = vy - DT * (GRAVITY + DRAG * speed * vy)
        x, y = x + DT * vx, y + DT * vy
    # Interpolate the crossing of y = 0 in the last step, so the distance is smooth in the angle.
    return prev_x + (x - prev_x) * prev_y / (prev_y - y)


angle = tf.Variable(0.3)
with tf.GradientTape() as tape:
    distance = landing_distance(angle)
grad = float(tape.gradient(distance, angle))
eps = 1e-3
fd = (float(landing_distance(tf.constant(0.3 + eps))) -
      float(landing_distance(tf.constant(0.3 - eps)))) / (2 * eps)
print(f'distance at 0.3 rad: {float(distance):.3f} m; d distance / d angle: {grad:.3f} '
      f'(finite difference {fd:.3f})')


@tf.function
def fit_step(learning_rate):
    with tf.GradientTape() as tape:
        loss = (landing_distance(angle) - TARGET) ** 2
    angle.assign_sub(learning_rate * tape.gradient(loss, angle))
    return loss


steps = 5 if args.short else 40
losses = []
for _ in progress(range(steps), steps, 'fitting the angle'):
    losses.append(float(fit_step(tf.constant(2e-3))))
print(f'angle {float(angle):.4f} rad lands at {float(landing_distance(angle)):.3f} m '
      f'(target {TARGET} m); squared error {losses[0]:.3f} -> {losses[-1]:.5f}')
save_plot(args, 'diff_sim_loss.png', {'squared distance error': losses})
